//! Naming the opening of whole games: the last named position wins, transpositions count, only standard starts are
//! classified, and replay stops at the first bad move.

use guoxiang_core::{Lang, Move, Position};
use guoxiang_openings::{Opening, by_position, classify, classify_uci};

/// The moves of a SAN movetext (`1. e4 c5 2. Nf3`) from the standard start.
fn moves(text: &str) -> Vec<Move> {
    let mut pos = Position::new();
    let mut out = Vec::new();
    for token in text.split_whitespace().filter(|t| !t.ends_with('.')) {
        out.push(pos.play_san(token).unwrap_or_else(|e| panic!("{token}: {e}")));
    }
    out
}

fn name_of(text: &str) -> Option<(&'static str, &'static str)> {
    classify(&Position::new(), &moves(text)).map(|o| (o.eco, o.name_en))
}

#[test]
fn najdorf() {
    let o = classify(&Position::new(), &moves("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6")).expect("named");
    assert_eq!(o.eco, "B90");
    assert_eq!(o.name(Lang::En), "Sicilian Defence: Najdorf Variation");
    assert_eq!(o.name(Lang::Zh), "西西里防御纳道夫变例");
    assert_eq!(o.plies, 10);
}

#[test]
fn a_game_that_leaves_the_table_keeps_its_last_name() {
    // 6. Qd3 is not in the table: the game is still a Najdorf.
    assert_eq!(
        name_of("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Qd3 e5 7. Nf3 Be7"),
        Some(("B90", "Sicilian Defence: Najdorf Variation"))
    );
    // Deeper named positions win over shallower ones.
    assert_eq!(
        name_of("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Bg5 e6 7. f4 Qb6 8. Qd2 Qxb2 9. Rb1 Qa3"),
        Some(("B97", "Sicilian Defence: Najdorf, Poisoned Pawn Variation"))
    );
}

#[test]
fn transpositions_count() {
    let nimzo = Some(("E20", "Nimzo-Indian Defence"));
    assert_eq!(name_of("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4"), nimzo);
    assert_eq!(name_of("1. c4 e6 2. Nc3 Nf6 3. d4 Bb4"), nimzo);
    assert_eq!(
        name_of("1. Nf3 Nf6 2. c4 e6 3. Nc3 Bb4 4. d4"),
        Some(("E21", "Nimzo-Indian Defence: Three Knights Variation"))
    );
    // The Caro-Kann main line after 3. Nd2 as after 3. Nc3.
    assert_eq!(name_of("1. e4 c6 2. d4 d5 3. Nd2 dxe4 4. Nxe4"), Some(("B15", "Caro-Kann Defence: Main Line")));
    // A Queen's Gambit Declined reached from the English.
    assert_eq!(
        name_of("1. c4 e6 2. Nc3 d5 3. d4 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7"),
        Some(("D60", "Queen's Gambit Declined: Orthodox Defence"))
    );
}

#[test]
fn first_moves() {
    assert_eq!(name_of("1. c4 e5"), Some(("A20", "English Opening: Reversed Sicilian")));
    assert_eq!(name_of("1. c4"), Some(("A10", "English Opening")));
    assert_eq!(name_of("1. e4"), Some(("B00", "King's Pawn Opening")));
    assert_eq!(name_of("1. d4"), Some(("A40", "Queen's Pawn Opening")));
    assert_eq!(name_of("1. Nf3"), Some(("A04", "Réti Opening")));
    assert_eq!(name_of("1. e4 e5"), Some(("C20", "Open Game")));
    assert_eq!(name_of(""), None);
}

#[test]
fn chinese_names_of_well_known_openings() {
    let zh = |text: &str| classify(&Position::new(), &moves(text)).map(|o| o.name(Lang::Zh));
    assert_eq!(zh("1. e4 e5 2. Nf3 Nc6 3. Bc4"), Some("意大利开局"));
    assert_eq!(zh("1. e4 e5 2. Nf3 Nc6 3. Bb5"), Some("西班牙开局"));
    assert_eq!(zh("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6"), Some("双马防御"));
    assert_eq!(zh("1. e4 e6"), Some("法兰西防御"));
    assert_eq!(zh("1. e4 c6"), Some("卡罗-康防御"));
    assert_eq!(zh("1. d4 d5 2. c4"), Some("后翼弃兵"));
    assert_eq!(zh("1. d4 d5 2. c4 e6"), Some("后翼弃兵拒绝"));
    assert_eq!(zh("1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6"), Some("王翼印度防御"));
}

#[test]
fn only_standard_starts_are_classified() {
    let najdorf = moves("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6");
    // The standard position with other move counters is still the standard start.
    let counters = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7").expect("fen");
    assert_eq!(classify(&counters, &najdorf).map(|o| o.eco), Some("B90"));
    // A set-up position (no castling rights) and a Chess960 start are not.
    let setup = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").expect("fen");
    assert_eq!(classify(&setup, &najdorf), None);
    let after_e4 = Position::new().after(najdorf[0]);
    assert_eq!(classify(&after_e4, &najdorf[1..]), None);
    let c960 = Position::chess960(0).expect("position 0");
    let mut pos = c960.clone();
    let first: Vec<Move> = (0..4)
        .map(|_| {
            let m = pos.legal_moves()[0];
            pos.play_unchecked(m);
            m
        })
        .collect();
    assert_eq!(classify(&c960, &first), None);
}

#[test]
fn replay_stops_at_the_first_illegal_move() {
    let mut ms = moves("1. e4 c5 2. Nf3 d6");
    let illegal = moves("1. e4")[0]; // e2-e4 again: no pawn on e2 any more.
    ms.push(illegal);
    ms.extend(moves("1. d4 Nf6"));
    assert_eq!(classify(&Position::new(), &ms).map(|o| o.eco), Some("B20"));
}

#[test]
fn uci() {
    let najdorf = ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"];
    assert_eq!(classify_uci(&najdorf).map(|o| o.eco), Some("B90"));
    assert_eq!(classify_uci(&["c2c4", "e7e5"]).map(|o| o.name_en), Some("English Opening: Reversed Sicilian"));
    // Castling in UCI (king to g1) reaches the Closed Ruy Lopez.
    let closed_ruy = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"];
    assert_eq!(classify_uci(&closed_ruy).map(|o| o.eco), Some("C84"));
    // Stops at text that is not UCI, and at an illegal move; what came before still counts.
    assert_eq!(classify_uci(&["e2e4", "c7c5", "xx", "g1f3", "d7d6"]).map(|o| o.eco), Some("B20"));
    assert_eq!(classify_uci(&["e2e4", "c7c5", "e2e4", "b8c6"]).map(|o| o.eco), Some("B20"));
    assert_eq!(classify_uci(&[]), None);
}

#[test]
fn by_position_ignores_move_counters() {
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";
    let pos = Position::from_fen(fen).expect("fen");
    let o: &Opening = by_position(&pos).expect("Sicilian");
    assert_eq!(o.eco, "B20");
    let later = Position::from_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 12 40").expect("fen");
    assert_eq!(by_position(&later), Some(o));
    assert_eq!(by_position(&Position::new()), None);
}
