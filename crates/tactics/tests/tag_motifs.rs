//! The tagger on hand-made positions: one or more per motif family, each asserting the motif and both sentences.

use guoxiang_core::{Move, Position};
use guoxiang_tactics::Motif;
use guoxiang_tactics::tag::{Tag, tag_line};

/// Tags a line given in UCI from the position the solver faces.
fn tags(fen: &str, uci: &str) -> Vec<Tag> {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut pos = start.clone();
    let mut line: Vec<Move> = Vec::new();
    for u in uci.split_whitespace() {
        let m = pos.parse_uci(u).unwrap_or_else(|e| panic!("{u} in {fen}: {e}"));
        pos = pos.after(m);
        line.push(m);
    }
    tag_line(&start, None, &line)
}

/// The tag of `motif`, failing with the whole list when it is missing.
fn find(found: &[Tag], motif: Motif) -> Tag {
    found
        .iter()
        .find(|t| t.motif == motif)
        .cloned()
        .unwrap_or_else(|| panic!("no {motif:?} in {:?}", found.iter().map(|t| t.motif).collect::<Vec<_>>()))
}

fn has(found: &[Tag], motif: Motif) -> bool {
    found.iter().any(|t| t.motif == motif)
}

#[test]
fn a_knight_fork_of_king_and_rook() {
    let found = tags("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7 e8d7 c7a8");
    let t = find(&found, Motif::Fork);
    assert_eq!(t.text.zh, "白马 c7同时攻击黑车 a8和黑王 e8。");
    assert_eq!(t.text.en, "The white knight on c7 attacks the black rook on a8 and the black king on e8 at once.");
}

#[test]
fn a_back_rank_mate_in_one() {
    let found = tags("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8");
    assert!(has(&found, Motif::Mate) && has(&found, Motif::MateIn1));
    let t = find(&found, Motif::BackRankMate);
    assert_eq!(t.text.zh, "白车 a1在底线将死黑王 g8，王被自己的子挡住了去路。");
    assert_eq!(
        t.text.en,
        "The white rook on a1 mates the black king on g8 on the back rank, its own men blocking its way out."
    );
    assert!(!has(&found, Motif::SmotheredMate));
}

#[test]
fn a_queen_back_rank_mate_and_one_that_is_not() {
    let found = tags("6k1/5ppp/8/8/8/8/8/Q5K1 w - - 0 1", "a1a8");
    let t = find(&found, Motif::BackRankMate);
    assert_eq!(t.text.zh, "白后 a1在底线将死黑王 g8，王被自己的子挡住了去路。");
    assert_eq!(
        t.text.en,
        "The white queen on a1 mates the black king on g8 on the back rank, its own men blocking its way out."
    );
    // The bishop on c4 also hits f7: the king is not held by its own men alone.
    let found = tags("6k1/5ppp/8/8/2B5/8/8/R5K1 w - - 0 1", "a1a8");
    assert!(has(&found, Motif::MateIn1) && !has(&found, Motif::BackRankMate));
}

#[test]
fn a_smothered_mate() {
    let found = tags("6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1", "h6f7");
    let t = find(&found, Motif::SmotheredMate);
    assert_eq!(t.text.zh, "白马 h6闷杀黑王 h8：王四周都是自己的子。");
    assert_eq!(
        t.text.en,
        "The white knight on h6 smothers the black king on h8: every square around it holds its own men."
    );
    assert!(!has(&found, Motif::BackRankMate));
}

#[test]
fn a_double_check_is_also_a_discovered_check() {
    let found = tags("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6");
    let t = find(&found, Motif::DoubleCheck);
    assert_eq!(t.text.zh, "白车 e1和白马 d6同时将军，黑王 e8只能走动。");
    assert_eq!(
        t.text.en,
        "The white rook on e1 and the white knight on d6 give check at once; the black king on e8 must move."
    );
    let t = find(&found, Motif::DiscoveredCheck);
    assert_eq!(t.text.zh, "白马 e4从 e4 走开，白车 e1闪将。");
    assert_eq!(t.text.en, "The white knight on e4 leaves e4 and uncovers a check by the white rook on e1.");
}

#[test]
fn a_discovered_check_is_a_discovered_attack_but_a_double_check_is_not() {
    let found = tags("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4c5");
    let t = find(&found, Motif::DiscoveredAttack);
    assert_eq!(t.text.zh, "白马 e4走开，露出白车 e1对黑王 e8的攻击。");
    assert_eq!(
        t.text.en,
        "The white knight on e4 moves away and uncovers an attack by the white rook on e1 on the black king on e8."
    );
    let found = tags("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4d6");
    assert!(has(&found, Motif::DoubleCheck) && !has(&found, Motif::DiscoveredAttack));
}

#[test]
fn a_fork_taken_at_once_by_a_pawn_is_no_fork() {
    // The knight on f5 checks the king on e7 and hits the queen on d6; when the king steps away it is a fork ...
    let found = tags("8/4k3/3qp3/8/3N4/8/8/3R2K1 w - - 0 1", "d4f5 e7f8 f5d6");
    let t = find(&found, Motif::Fork);
    assert_eq!(t.text.zh, "白马 f5同时攻击黑后 d6和黑王 e7。");
    assert_eq!(t.text.en, "The white knight on f5 attacks the black queen on d6 and the black king on e7 at once.");
    // ... but when the pawn on e6 simply takes the knight, the rook's win on d6 owes nothing to it.
    let found = tags("8/4k3/3qp3/8/3N4/8/8/3R2K1 w - - 0 1", "d4f5 e6f5 d1d6");
    assert!(!has(&found, Motif::Fork));
}

#[test]
fn a_discovered_attack_on_the_queen() {
    let found = tags("3k4/8/5q2/8/3N4/8/1B6/4K3 w - - 0 1", "d4e6 d8e8 b2f6");
    let t = find(&found, Motif::DiscoveredAttack);
    assert_eq!(t.text.zh, "白马 d4走开，露出白象 b2对黑后 f6的攻击。");
    assert_eq!(
        t.text.en,
        "The white knight on d4 moves away and uncovers an attack by the white bishop on b2 on the black queen on f6."
    );
}

#[test]
fn an_absolute_pin_wins_the_pinned_knight() {
    let found = tags("4k3/7p/2n5/1B6/3P4/8/8/4K3 w - - 0 1", "d4d5 h7h6 d5c6");
    assert!(has(&found, Motif::Pin));
    let t = find(&found, Motif::AbsolutePin);
    assert_eq!(t.text.zh, "白象 b5把黑马 c6牵制在黑王 e8身前，黑马 c6走不开而丢失。");
    assert_eq!(
        t.text.en,
        "The white bishop on b5 pins the black knight on c6 to the black king on e8, and the pinned piece is lost."
    );
    assert!(!has(&found, Motif::RelativePin));
}

#[test]
fn a_rook_pins_the_queen_to_the_king() {
    let found = tags("4k3/8/4q3/8/8/8/5K2/R7 w - - 0 1", "a1e1 e6e1 f2e1");
    let t = find(&found, Motif::Pin);
    assert_eq!(t.text.zh, "白车 e1把黑后 e6牵制在黑王 e8身前，黑后 e6走不开而丢失。");
    assert_eq!(
        t.text.en,
        "The white rook on e1 pins the black queen on e6 to the black king on e8, and the pinned piece is lost."
    );
}

#[test]
fn a_pinned_knight_cannot_take_the_queen_that_took_its_rook() {
    let found = tags("4k3/3n4/8/1B2r3/8/8/4Q3/4K3 w - - 0 1", "e2e5");
    let t = find(&found, Motif::Pin);
    assert_eq!(t.text.zh, "白象 b5牵制住黑马 d7，它不能离开去保护 e5。");
    assert_eq!(
        t.text.en,
        "The white bishop on b5 pins the black knight on d7 to the black king on e8, so it cannot leave to cover e5."
    );
    assert!(has(&found, Motif::AbsolutePin));
}

#[test]
fn a_relative_pin_is_ours_but_not_lichess_pin() {
    // The bishop on g5 pins the knight on f6 to the queen on d8, and the pawn wins the knight. That is 牵制 (a
    // relative pin), but lichess's `pin` marks pins against the king only, so it is written as no lichess theme.
    let found = tags("3qk3/7p/5n2/6B1/4P3/8/8/4K3 w - - 0 1", "e4e5 h7h6 e5f6");
    let t = find(&found, Motif::RelativePin);
    assert_eq!(t.text.zh, "白象 g5牵制住黑马 f6，它身后是黑后 d8。");
    assert_eq!(t.text.en, "The white bishop on g5 pins the black knight on f6 to the black queen on d8.");
    assert!(has(&found, Motif::Pin) && !has(&found, Motif::AbsolutePin));
    let motifs: Vec<Motif> = found.iter().map(|t| t.motif).collect();
    assert!(!guoxiang_tactics::lichess_themes(&motifs).contains(&"pin"));
}

#[test]
fn a_skewer_of_king_and_queen() {
    let found = tags("8/8/8/q2k4/8/8/8/1K5R w - - 0 1", "h1h5 d5d6 h5a5");
    let t = find(&found, Motif::Skewer);
    assert_eq!(t.text.zh, "白车 h5串击黑王 d5，它让开后吃掉后面的黑后 a5。");
    assert_eq!(
        t.text.en,
        "The white rook on h5 skewers the black king on d5; once it steps aside, the black queen on a5 falls."
    );
}

#[test]
fn a_hanging_knight() {
    let found = tags("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1", "a1a5");
    let t = find(&found, Motif::HangingPiece);
    assert_eq!(t.text.zh, "黑马 a5没有保护，白车 a1白吃它。");
    assert_eq!(t.text.en, "The black knight on a5 is left hanging and the white rook on a1 takes it.");
}

/// Tags a line that follows the opponent's `setup` move, as in a lichess puzzle (`fen` is before the setup).
fn tags_after(fen: &str, setup: &str, uci: &str) -> Vec<Tag> {
    let before = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let s = before.parse_uci(setup).unwrap_or_else(|e| panic!("{setup} in {fen}: {e}"));
    let mut pos = before.after(s);
    let mut line: Vec<Move> = Vec::new();
    for u in uci.split_whitespace() {
        let m = pos.parse_uci(u).unwrap_or_else(|e| panic!("{u} in {fen}: {e}"));
        pos = pos.after(m);
        line.push(m);
    }
    tag_line(&before, Some(s), &line)
}

#[test]
fn a_defended_knight_is_not_hanging() {
    // The pawn on b6 takes back on a5.
    let found = tags("4k3/8/1p6/n7/8/8/8/R3K3 w - - 0 1", "a1a5 b6a5");
    assert!(!has(&found, Motif::HangingPiece), "{found:?}");
}

#[test]
fn a_queen_that_took_a_knight_is_hanging_but_a_bishop_that_did_is_a_trade() {
    // …Qxc3+ bxc3: the queen took a knight and is lost for it.
    let found = tags_after("4k3/8/8/q7/8/2N5/1P6/4K3 b - - 0 1", "a5c3", "b2c3");
    let t = find(&found, Motif::HangingPiece);
    assert_eq!(t.text.en, "The black queen on c3 is left hanging and the white pawn on b2 takes it.");
    assert_eq!(t.text.zh, "黑后 c3没有保护，白兵 b2白吃它。");
    // …Bxc3+ bxc3: a bishop for a knight, an even trade, nothing was left hanging.
    let found = tags_after("4k3/8/8/b7/8/2N5/1P6/4K3 b - - 0 1", "a5c3", "b2c3");
    assert!(!has(&found, Motif::HangingPiece), "{found:?}");
}

#[test]
fn a_check_deflects_the_king_from_the_bishop_it_guarded() {
    // Qa5+ drives the king from d8, the only guard of the bishop on c8, and the rook takes it.
    let found = tags("2bk4/8/8/8/Q7/8/8/K1R5 w - - 0 1", "a4a5 d8e8 c1c8");
    let t = find(&found, Motif::Deflection);
    assert_eq!(t.text.zh, "黑王 d8被引离，不再保护 c8。");
    assert_eq!(t.text.en, "The black king on d8 is drawn away and no longer guards c8.");
    // Stepping to d7 the king still guards c8: nothing was deflected.
    let found = tags("2bk4/8/8/8/Q7/8/8/K1R5 w - - 0 1", "a4a5 d8d7 c1c8");
    assert!(!has(&found, Motif::Deflection), "{found:?}");
}

#[test]
fn a_check_that_also_hits_the_queen_is_a_fork_not_a_deflection() {
    // Nf6+ checks the king on e8, which guarded the queen on d7 — but the knight attacked the queen itself.
    let found = tags("4k3/3q4/8/8/6N1/8/8/4K3 w - - 0 1", "g4f6 e8f8 f6d7");
    assert!(has(&found, Motif::Fork), "{found:?}");
    assert!(!has(&found, Motif::Deflection), "{found:?}");
}

#[test]
fn a_check_before_taking_back_is_an_intermezzo() {
    // …Bxd4 took a knight; Rxd4 was possible at once, but Re8+ comes first and Rxd4 after.
    let fen = "6k1/6pp/1b6/8/3N4/8/5PPP/3RR1K1 b - - 0 1";
    let found = tags_after(fen, "b6d4", "e1e8 g8f7 d1d4");
    let t = find(&found, Motif::Intermezzo);
    assert_eq!(t.text.zh, "白方没有马上在 d4 吃回，而是先走白车 e1到 e8，下一步才吃回。");
    assert_eq!(
        t.text.en,
        "White does not take back on d4 at once: the white rook on e1 first goes to e8, and the recapture follows."
    );
    // Taking back at once is no intermezzo.
    assert!(!has(&tags_after(fen, "b6d4", "d1d4"), Motif::Intermezzo));
}

#[test]
fn a_check_by_the_piece_that_then_takes_back_is_no_intermezzo() {
    // Qd8+ and the same queen takes on d4: one piece doing two things, not a move in between.
    let found = tags_after("6k1/6pp/1b6/8/3N3Q/8/5PPP/6K1 b - - 0 1", "b6d4", "h4d8 g8f7 d8d4");
    assert!(!has(&found, Motif::Intermezzo), "{found:?}");
}

#[test]
fn a_queen_trade_with_check_is_not_a_deflection() {
    // Qxe5+ Rxe5 Rxd8: the rook left d8 to take back a queen for a queen — a trade, then a loose rook.
    let found = tags("3rr3/6k1/8/4q3/8/8/1Q6/3R2K1 w - - 0 1", "b2e5 e8e5 d1d8");
    assert!(!has(&found, Motif::Deflection), "{found:?}");
}

#[test]
fn a_knight_clears_the_file_for_the_rook() {
    // Nf6+ leaves e4 and the rook goes through it to the seventh rank.
    let found = tags("6k1/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4f6 g8h8 e1e7");
    let t = find(&found, Motif::Clearance);
    assert_eq!(t.text.zh, "白马 e4让出 e4，白车 e1随即利用它。");
    assert_eq!(t.text.en, "The white knight on e4 clears e4 and the white rook on e1 uses it next.");
    // Taking on e7 through the open file is an exchange going on, not a clearance.
    let found = tags("6k1/4r3/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4f6 g8h8 e1e7");
    assert!(!has(&found, Motif::Clearance), "{found:?}");
}

#[test]
fn promotion_under_promotion_en_passant_and_castling() {
    let found = tags("8/5P1k/8/8/8/8/8/K7 w - - 0 1", "f7f8n");
    let t = find(&found, Motif::Promotion);
    assert_eq!(t.text.zh, "白兵 f7走到 f8 升变为马。");
    assert_eq!(t.text.en, "The white pawn on f7 promotes on f8 to a knight.");
    let t = find(&found, Motif::UnderPromotion);
    assert_eq!(t.text.zh, "白兵 f7在 f8 升变为马而不是后。");
    assert_eq!(t.text.en, "The white pawn on f7 promotes on f8 to a knight, not a queen.");

    let found = tags("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6");
    let t = find(&found, Motif::EnPassant);
    assert_eq!(t.text.zh, "白兵 e5吃过路兵，走到 d6。");
    assert_eq!(t.text.en, "The white pawn on e5 takes en passant on d6.");

    let found = tags("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
    let t = find(&found, Motif::Castling);
    assert_eq!(t.text.zh, "白方短易位（王车易位），王到 g1。");
    assert_eq!(t.text.en, "White castles kingside, the king going to g1.");
    assert!(!has(&found, Motif::Promotion));
}

#[test]
fn a_quiet_line_with_no_tactic_gets_no_tactical_tags() {
    let found = tags("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2 e8e7");
    assert!(
        found.iter().all(|t| !matches!(t.motif, Motif::Fork | Motif::Pin | Motif::Skewer | Motif::Mate)),
        "{found:?}"
    );
}

#[test]
fn an_illegal_setup_yields_nothing() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("fen");
    let bad = Move::normal(guoxiang_core::Square::A1, guoxiang_core::Square::A8);
    assert!(tag_line(&pos, Some(bad), &[]).is_empty());
}
