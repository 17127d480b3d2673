// SPDX-License-Identifier: GPL-3.0-or-later
//! Lenient reading, as real files need it: UCI moves in the movetext (whole games of them, or mixed with SAN), null
//! moves (`--`, `Z0`, `0000`, `@@@@`) kept in main lines and variations and written back as `--`, and error columns
//! counted in characters. Every fixture here is written for this file.

mod common;

use common::all_events;
use guoxiang_core::{Move, Position};
use guoxiang_pgn::{Game, Line, NULL_MOVE, Ply, Reader, Replayer, normalize};

fn one_game(pgn: &str) -> Game {
    let mut all: Vec<_> = Reader::new(pgn.as_bytes()).games().collect();
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0).unwrap()
}

fn sans(line: &Line) -> Vec<&str> {
    line.nodes.iter().map(|n| n.san.as_str()).collect()
}

/// The main line, normalized, with no error allowed.
fn normalized(pgn: &str) -> (Game, Vec<Ply>) {
    let mut g = one_game(pgn);
    let (_, plies, errors) = normalize(&mut g);
    assert!(errors.is_empty(), "{errors:?}");
    (g, plies)
}

fn replay(pgn: &str, replayer: &mut Replayer) -> guoxiang_pgn::ReplayedGame {
    Reader::new(pgn.as_bytes()).read_game(replayer).unwrap().unwrap()
}

/// Moves from SAN, resolved by the rules core alone, for comparison.
fn san_moves(fen: Option<&str>, sans: &[&str]) -> Vec<Move> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).unwrap(),
        None => Position::new(),
    };
    sans.iter()
        .map(|s| {
            let m = pos.parse_san(s).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// The text of the first error of the first game.
fn first_error(pgn: &[u8], capacity: usize) -> String {
    let mut r = Reader::with_capacity(capacity, pgn);
    match r.read_owned_game() {
        Err(e) => e.to_string(),
        other => panic!("expected an error, got {other:?}"),
    }
}

// ---- UCI movetext ----------------------------------------------------------

#[test]
fn a_whole_game_in_uci_reads_as_the_same_moves_as_in_san() {
    let uci = "[Event \"uci\"]\n\ne2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 e8g8 c1g5 h7h6 g5f6 d8f6 *\n";
    let san = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Bc5", "d3", "O-O", "Bg5", "h6", "Bxf6", "Qxf6"];
    let expected = san_moves(None, &san);
    // The reader is syntactic: tokens come through as written.
    let g = one_game(uci);
    assert_eq!(sans(&g.moves)[..3], ["e2e4", "e7e5", "g1f3"]);
    // The replay layer resolves them.
    let r = replay(uci, &mut Replayer::new());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.moves, expected);
    assert_eq!(r.main_line(), expected.iter().map(|&m| Ply::Move(m)).collect::<Vec<_>>());
    // Only a replayer that keeps null moves fills `plies`.
    assert!(r.plies.is_empty());
    assert_eq!(replay(uci, &mut Replayer::with_null_moves()).plies, r.main_line());
    // normalize writes them as SAN.
    let (g, plies) = normalized(uci);
    assert_eq!(sans(&g.moves), san);
    assert_eq!(plies.len(), san.len());
    assert!(g.to_pgn().contains("4. O-O Bc5 5. d3 O-O 6. Bg5 h6 7. Bxf6 Qxf6 *"), "{}", g.to_pgn());
}

#[test]
fn uci_mixed_with_san_and_in_variations() {
    let pgn = "1. e4 e7e5 2. Nf3 b8c6 (2... d7d6 3. d2d4) 3. f1b5 a6 4. b5a4 *";
    let (g, _) = normalized(pgn);
    assert_eq!(sans(&g.moves), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
    assert_eq!(sans(&g.moves.nodes[3].variations[0]), ["d6", "d4"]);
    let r = replay(pgn, &mut Replayer::new());
    assert_eq!(r.moves, san_moves(None, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]));
}

#[test]
fn uci_promotions_and_castling_both_ways() {
    // Under-promotion and a promotion with capture.
    let fen = "1n5k/P3P3/8/8/8/8/8/4K3 w - - 0 1";
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. e7e8n h8g8 2. a7b8q *");
    let (g, _) = normalized(&pgn);
    assert_eq!(sans(&g.moves), ["e8=N", "Kg8", "axb8=Q"]);
    // Standard castling as king-to-square and as king onto rook.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. e1h1 e8c8 *");
    let (g, _) = normalized(&pgn);
    assert_eq!(sans(&g.moves), ["O-O", "O-O-O"]);
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. e1c1 e8h8 *");
    let (g, _) = normalized(&pgn);
    assert_eq!(sans(&g.moves), ["O-O-O", "O-O"]);
    // Chess960: king onto rook (here the king's one-square step would land on its own rook).
    let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let pgn = format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. f1g1 f8g8 2. g2g3 *");
    let (g, _) = normalized(&pgn);
    assert_eq!(sans(&g.moves), ["O-O", "O-O", "g3"]);
    let r = replay(&pgn, &mut Replayer::new());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.position.fen(), "bqnbrrkn/pppppppp/8/8/8/6P1/PPPPPP1P/BQNBRRKN b - - 0 2");
}

#[test]
fn an_illegal_uci_move_says_so_with_its_place() {
    let r = replay("1. e2e4 e7e5 2. g1f4 *", &mut Replayer::new());
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    let e = &r.errors[0];
    assert_eq!(e.ply, Some(3));
    let text = e.to_string();
    assert!(text.starts_with("line 1, column 17: move 2. g1f4: not a legal move here"), "{text}");
    assert!(text.contains("as UCI (no legal move from g1 to f4)"), "{text}");
}

// ---- null moves ------------------------------------------------------------

const NULLS: &str = "1. e4 -- 2. d4 Z0 3. Nf3 0000 4. c4 @@@@ (4... e5 5. -- d5) 5. Nc3 *";

#[test]
fn every_null_move_spelling_is_handed_out_as_double_dash() {
    let g = one_game(NULLS);
    assert_eq!(sans(&g.moves), ["e4", "--", "d4", "--", "Nf3", "--", "c4", "--", "Nc3"]);
    assert_eq!(sans(&g.moves.nodes[7].variations[0]), ["e5", "--", "d5"]);
    assert!(g.moves.nodes[1].is_null() && !g.moves.nodes[0].is_null());
    assert!(g.moves.nodes.iter().filter(|n| n.is_null()).all(|n| n.san == NULL_MOVE));
    // The same with every buffer size (tokens split across refills).
    let events = all_events(NULLS.as_bytes(), 16);
    assert_eq!(events, all_events(NULLS.as_bytes(), 1 << 16));
    // `0000` is not taken for a move number, nor `@@@@` for junk; but other runs of `@` still are errors.
    assert!(Reader::new("1. e4 @@@ *".as_bytes()).read_owned_game().is_err());
    assert!(Reader::new("1. e4 @@@@@ *".as_bytes()).read_owned_game().is_err());
    assert_eq!(sans(&one_game("1. e4 00 e5 *").moves), ["e4", "e5"]);
}

#[test]
fn null_moves_are_written_back_as_double_dash_and_read_back_the_same() {
    let g = one_game(NULLS);
    let text = g.to_pgn();
    assert!(text.contains("1. e4 -- 2. d4 -- 3. Nf3 -- 4. c4 -- (4... e5 5. -- d5) 5. Nc3 *"), "{text}");
    let back = one_game(&text);
    assert_eq!((&back.moves, back.result), (&g.moves, g.result));
    // After normalize too.
    let (n, plies) = normalized(NULLS);
    assert_eq!(n, g);
    assert_eq!(plies.iter().filter(|p| p.is_null()).count(), 4);
    assert_eq!(one_game(&n.to_pgn()).moves, n.moves);
}

#[test]
fn replaying_a_null_move_passes_the_turn_like_python_chess() {
    // Side to move switches, en passant square cleared, halfmove clock up by one, fullmove number up after Black.
    let r = replay("1. e4 d5 2. e5 f5 3. -- *", &mut Replayer::with_null_moves());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.position.fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    let r = replay(NULLS, &mut Replayer::with_null_moves());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.position.fen(), "rnbqkbnr/pppppppp/8/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R b KQkq - 2 5");
    assert_eq!(r.plies.len(), 9);
    assert_eq!(r.main_line(), r.plies);
    assert_eq!(r.plies.iter().filter(|p| p.is_null()).count(), 4);
    // `moves` stops before the first null move, so no importer can take it for the whole game.
    assert_eq!(r.moves, san_moves(None, &["e4"]));
    let start = Position::new();
    assert_eq!((r.plies[1].uci(&start), r.plies[1].san(&start)), ("0000".to_string(), "--".to_string()));
}

#[test]
fn by_default_a_main_line_null_move_is_an_error_naming_the_move() {
    let r = replay("[Event \"x\"]\n\n1. e4 e5 2. Nf3 -- 3. d4 *", &mut Replayer::new());
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].ply, Some(4));
    assert_eq!(
        r.errors[0].to_string(),
        "line 3, column 17: move 2... --: a null move (a pass, not a move on the board) cannot be replayed here"
    );
    // Variations are not replayed by the Replayer, so a null move there is no error.
    let r = replay("1. e4 e5 (1... -- 2. d4) 2. Nf3 *", &mut Replayer::new());
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.moves.len(), 3);
}

#[test]
fn a_null_move_in_check_is_an_error_and_cuts_the_line_there() {
    let pgn = "1. e4 f6 2. Qh5+ (2. d4 -- 3. d5) 2... -- 3. Qe8 *";
    let column = pgn.find("2... --").unwrap() + 6;
    let mut g = one_game(pgn);
    assert_eq!(g.moves.nodes.len(), 5);
    let (_, plies, errors) = normalize(&mut g);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].ply, Some(4));
    assert_eq!(
        errors[0].to_string(),
        format!("line 1, column {column}: move 2... --: a null move is not allowed in check (the king could be taken)")
    );
    assert_eq!(plies.len(), 3);
    assert_eq!(sans(&g.moves), ["e4", "f6", "Qh5+"]);
    // The variation, with a null move out of check, is kept.
    assert_eq!(sans(&g.moves.nodes[2].variations[0]), ["d4", "--", "d5"]);
    for replayer in [Replayer::new(), Replayer::with_null_moves()] {
        let mut replayer = replayer;
        let r = replay(pgn, &mut replayer);
        assert_eq!((r.errors.len(), r.main_line().len()), (1, 3), "{:?}", r.errors);
    }
}

#[test]
fn null_moves_at_the_start_of_a_variation_and_from_a_fen() {
    // Black to move in the FEN: the null move is Black's, the numbering follows.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 7 40";
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n40... -- 41. e4 (41. -- Kd7) 41... Ke7 *");
    let (g, plies) = normalized(&pgn);
    assert_eq!(sans(&g.moves), ["--", "e4", "Ke7"]);
    assert_eq!(plies[0], Ply::Null);
    assert!(g.to_pgn().contains("40... -- 41. e4 (41. -- Kd7) 41... Ke7 *"), "{}", g.to_pgn());
    let r = replay(&pgn, &mut Replayer::with_null_moves());
    assert_eq!(r.position.fen(), "8/4k3/8/8/4P3/8/8/4K3 w - - 1 42");
}

// ---- columns in characters -------------------------------------------------

#[test]
fn error_columns_count_characters_not_bytes() {
    // `中文注释` is 4 characters, 12 bytes.
    let pgn = "1. e4 {中文注释} e5 ) *";
    for capacity in [16, 1 << 16] {
        assert_eq!(first_error(pgn.as_bytes(), capacity), "game 1, line 1, column 17: unexpected ')'");
    }
    // Over two lines, with a Chinese tag value before.
    let pgn = "[Event \"中国象棋\"]\n\n1. e4 { 注释\n第二行 } e5 2. Nf3 $ *";
    for capacity in [16, 1 << 16] {
        assert_eq!(first_error(pgn.as_bytes(), capacity), "game 1, line 4, column 17: invalid NAG '$'");
    }
    // Four-byte characters count as one too.
    assert_eq!(first_error("1. e4 {😀😀} e5 ) *".as_bytes(), 16), "game 1, line 1, column 15: unexpected ')'");
    // A byte of ISO-8859-1 text (not UTF-8) is one character.
    assert_eq!(first_error(b"1. e4 {Ren\xe9} e5 ) *", 16), "game 1, line 1, column 17: unexpected ')'");
    // The offset still counts bytes.
    let mut r = Reader::new("1. e4 {中文注释} e5 ) *".as_bytes());
    let e = r.read_owned_game().unwrap_err();
    assert_eq!((e.column(), e.location().offset), (17, 24));
}

#[test]
fn replay_error_columns_count_characters() {
    let r = replay("1. e4 {好} e5 {好好} Nf9 *", &mut Replayer::new());
    assert_eq!(r.errors.len(), 1);
    assert!(r.errors[0].to_string().starts_with("line 1, column 19: move 2. 'Nf9'"), "{}", r.errors[0]);
}

#[test]
fn columns_stay_right_along_a_long_line_read_in_small_pieces() {
    // A lichess-style game: the whole movetext on one line, here with Chinese comments, and an error at its end.
    let mut line = String::new();
    for i in 1..=60 {
        line.push_str(&format!("{i}. Nf3 {{第{i}步 马}} Nf6 {{好棋}} {i}... Ng1 Ng8 "));
    }
    let expected = line.chars().count() + 1;
    line.push_str(") *");
    let pgn = format!("[Event \"长\"]\n\n{line}\n");
    for capacity in [16, 100, 1 << 16] {
        let text = first_error(pgn.as_bytes(), capacity);
        assert_eq!(text, format!("game 1, line 3, column {expected}: unexpected ')'"), "capacity {capacity}");
    }
    // And every move's location (columns included) is the same whatever the buffer size.
    let cut = pgn.replace(") *", "*");
    assert_eq!(all_events(cut.as_bytes(), 16), all_events(cut.as_bytes(), 1 << 16));
}

// ---- blank lines in the tag section ----------------------------------------

#[test]
fn a_blank_line_inside_the_tag_section_does_not_split_the_game() {
    // ChessBase writes a blank line after `Event`: one game, as python-chess reads it.
    let pgn = "[Event \"a\"]\n\n[Date \"2017.12.04\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n";
    let g = one_game(pgn);
    assert_eq!((g.tag("Event"), g.tag("Date")), (Some("a"), Some("2017.12.04")));
    assert_eq!(sans(&g.moves), ["e4", "e5"]);
    // A tag already in the section after a blank line starts the next game (this one had no movetext).
    let all: Vec<Game> = Reader::new("[Event \"a\"]\n[Site \"s\"]\n\n[Site \"t\"]\n\n1. d4 *".as_bytes())
        .games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(all.len(), 2);
    assert_eq!((all[0].tag("Site"), all[0].moves.nodes.len()), (Some("s"), 0));
    assert_eq!((all[1].tag("Site"), sans(&all[1].moves)), (Some("t"), vec!["d4"]));
}
