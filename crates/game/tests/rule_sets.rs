//! The rule sets of a game (docs/game.md, "Rule sets"): touch-move (Laws Article 4; Article 7 in the older Laws
//! the seeds quote), illegal moves counted (Article 7.5) and the school rule 送王, each case by its article.

mod common;

use common::*;
use guoxiang_game::{
    Action, ClaimKind, Color, Command, CommandError, Event, Game, GameConfig, IllegalMoves, MoveInput, PgnTags, Rules,
    Variant,
};

fn with_rules(tc: &str, rules: Rules, fen: Option<&str>) -> Game {
    let variant = fen.map_or(Variant::Standard, |f| Variant::FromPosition { fen: f.into() });
    let mut s = setup(tc, false, variant);
    s.config = s.config.with_rules(rules);
    Game::new(s, t(T0)).unwrap()
}

fn touch(g: &mut Game, now: u64, sq: &str) -> Vec<guoxiang_game::VersionedEvent> {
    let by = g.turn();
    g.apply(t(now), Command::by(by, Action::Touch { square: sq.into() })).unwrap_or_else(|e| panic!("{sq}: {e}"))
}

fn try_move(g: &mut Game, now: u64, uci: &str) -> Result<Vec<guoxiang_game::VersionedEvent>, CommandError> {
    let by = g.turn();
    g.apply(t(now), mv_cmd(by, uci))
}

const FIDE: Rules = Rules { touch_move: false, illegal_moves: IllegalMoves::Fide };
const SONG_WANG: Rules = Rules { touch_move: false, illegal_moves: IllegalMoves::KingIntoCheck };

#[test]
fn online_games_refuse_touches_and_illegal_moves() {
    let mut g = game("300+0", false);
    let e = g.apply(t(T0), Command::by(Color::White, Action::Touch { square: "g1".into() })).unwrap_err();
    assert_eq!(e.code(), "touch_move_off");
    assert!(matches!(try_move(&mut g, T0, "e2e5"), Err(CommandError::IllegalMove { .. })));
    assert_eq!((g.version(), g.illegal_moves(Color::White)), (0, 0));
}

/// 4.3.1 (7.2 (1) of the older Laws): the first own piece touched that can be moved must be moved; the obligation
/// is explained in zh and en, and refusing it changes nothing.
#[test]
fn a_touched_piece_must_be_moved() {
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    let ev = touch(&mut g, T0 + 1_000, "g1");
    match &ev[0].event {
        Event::PieceTouched { by, square, binding, message_zh, message_en } => {
            assert_eq!((*by, square.as_str(), *binding), (Color::White, "g1", true));
            assert_eq!(message_zh, "你已摸了马g1，必须走马（摸子走子，第4.3.1条）");
            assert_eq!(message_en, "You touched your knight on g1: you must move it (touch-move, Article 4.3.1)");
        }
        e => panic!("{e:?}"),
    }
    let version = g.version();
    match try_move(&mut g, T0 + 2_000, "e2e4") {
        Err(CommandError::TouchMove { zh, en }) => {
            assert!(zh.starts_with("你已摸了马g1，必须走马"), "{zh}");
            assert!(en.contains("you must move it"), "{en}");
        }
        r => panic!("{r:?}"),
    }
    assert_eq!(g.version(), version);
    // Touching another piece afterwards changes nothing: the knight was first.
    touch(&mut g, T0 + 2_500, "e2");
    assert!(matches!(try_move(&mut g, T0 + 3_000, "e2e4"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0 + 3_000, "g1f3");
    // A new turn starts free.
    assert!(g.touches().is_empty());
    mv(&mut g, T0 + 4_000, "e7e5");
}

/// 4.3.1 with 4.5 (7.3): a touched piece that cannot move binds nothing; the next touched one that can does.
#[test]
fn a_piece_that_cannot_move_binds_nothing() {
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    let ev = touch(&mut g, T0, "f1");
    match &ev[0].event {
        Event::PieceTouched { binding, message_en, .. } => {
            assert!(!binding);
            assert!(message_en.contains("Article 4.5"), "{message_en}");
        }
        e => panic!("{e:?}"),
    }
    touch(&mut g, T0, "b1");
    assert!(matches!(try_move(&mut g, T0, "g1f3"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0, "b1c3");
}

/// 4.3.2 and 4.3.3 (7.2 (2)): an opponent's piece touched must be captured; touched with one of one's own, captured
/// by that piece.
#[test]
fn touched_opponent_pieces_must_be_captured() {
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    line(&mut g, T0, "e2e4 d7d5 b1c3 a7a6");
    touch(&mut g, T0 + 5_000, "d5");
    assert!(matches!(try_move(&mut g, T0 + 5_000, "g1f3"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0 + 5_000, "c3d5"); // any capture of d5 will do
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    line(&mut g, T0, "e2e4 d7d5 b1c3 a7a6");
    touch(&mut g, T0 + 5_000, "c3");
    let ev = touch(&mut g, T0 + 5_000, "d5");
    match &ev[0].event {
        Event::PieceTouched { message_zh, .. } => assert!(message_zh.contains("必须用马吃掉它"), "{message_zh}"),
        e => panic!("{e:?}"),
    }
    assert!(matches!(try_move(&mut g, T0 + 5_000, "e4d5"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0 + 5_000, "c3d5");
}

/// 4.2 (7.1): "I adjust" first binds nothing; only the player on move touches or adjusts.
#[test]
fn adjusting_binds_nothing() {
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    let ev = g.apply(t(T0), Command::by(Color::White, Action::Adjust { square: "g1".into() })).unwrap();
    assert!(matches!(&ev[0].event, Event::PieceAdjusted { square, .. } if square == "g1"));
    mv(&mut g, T0, "e2e4");
    let e = g.apply(t(T0), Command::by(Color::White, Action::Touch { square: "d2".into() })).unwrap_err();
    assert_eq!(e.code(), "not_your_turn");
    let e = g.apply(t(T0), Command::by(Color::Black, Action::Touch { square: "e4e5".into() })).unwrap_err();
    assert_eq!(e.code(), "nothing_to_touch");
    let e = g.apply(t(T0), Command::by(Color::Black, Action::Touch { square: "e5".into() })).unwrap_err();
    assert_eq!(e.code(), "nothing_to_touch");
}

/// 4.4: king then rook obliges castling on that side; rook then king forbids it (the rook must move).
#[test]
fn castling_and_touch_move() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, Some(fen));
    touch(&mut g, T0, "e1");
    touch(&mut g, T0, "h1");
    assert!(matches!(try_move(&mut g, T0, "e1f1"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0, "e1g1");
    touch(&mut g, T0, "h8");
    touch(&mut g, T0, "e8");
    assert!(matches!(try_move(&mut g, T0, "e8g8"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0, "h8g8");
}

/// The touches of the turn survive a restart.
#[test]
fn touches_are_kept_in_the_snapshot() {
    let mut g = with_rules("5400+30", Rules::TOUCH_MOVE, None);
    touch(&mut g, T0, "g1");
    let snap = g.snapshot(t(T0 + 1_000));
    let json = serde_json::to_string(&snap).unwrap();
    assert!(json.contains(r#""touches":["g1"]"#), "{json}");
    assert!(json.contains(r#""rules":{"touch_move":true,"illegal_moves":"refused"}"#), "{json}");
    let mut g = Game::restore(serde_json::from_str(&json).unwrap(), t(T0 + 5_000)).unwrap();
    assert!(matches!(try_move(&mut g, T0 + 6_000, "e2e4"), Err(CommandError::TouchMove { .. })));
}

/// 7.5.1 / 7.5.5 in standard play: a completed illegal move is taken back and counted, the opponent gets two
/// minutes; the second loses; the PGN says so.
#[test]
fn fide_illegal_moves_two_minutes_then_lost() {
    let mut g = with_rules("5400+30", FIDE, None);
    line(&mut g, T0, "e2e4 e7e5");
    let ev = try_move(&mut g, T0 + 3_000, "e1e3").unwrap();
    assert_eq!(types(&ev), ["illegal_move_counted", "clock_update"]);
    match &ev[0].event {
        Event::IllegalMoveCounted { by, uci, count, limit, penalty_ms, message_zh, message_en } => {
            assert_eq!((*by, uci.as_str(), *count, *limit, *penalty_ms), (Color::White, "e1e3", 1, 2, 120_000));
            assert!(
                message_zh.contains("局面已恢复到这步棋之前") && message_zh.contains("对方加时2分钟"),
                "{message_zh}"
            );
            assert!(message_en.contains("Article 7.5.5"), "{message_en}");
        }
        e => panic!("{e:?}"),
    }
    let c = g.clocks(t(T0 + 3_000)).unwrap();
    // (The first moves are not timed and earn no increment.)
    assert_eq!(c.black_ms, 5_400_000 + 120_000);
    assert_eq!((g.turn(), g.moves().len(), g.illegal_moves(Color::White)), (Color::White, 2, 1));
    // Garbage and moves of no own piece are refused, not counted.
    assert!(matches!(try_move(&mut g, T0 + 4_000, "e7e6"), Err(CommandError::IllegalMove { .. })));
    assert!(matches!(try_move(&mut g, T0 + 4_000, "zz"), Err(CommandError::BadMoveText { .. })));
    mv(&mut g, T0 + 4_000, "g1f3");
    mv(&mut g, T0 + 5_000, "b8c6");
    let ev = try_move(&mut g, T0 + 6_000, "f3f5").unwrap();
    let (result, termination, winner) = ended(&ev).unwrap();
    assert_eq!((result.as_str(), termination.as_str(), winner), ("0-1", "illegal_move", Some(Color::Black)));
    let pgn = g.to_pgn(&PgnTags::default()).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(pgn.contains("[Termination \"Rules infraction\"]"), "{pgn}");
    assert!(pgn.contains("{ White's illegal move e1e3: A king moves one square"), "{pgn}");
    assert!(pgn.contains("illegal move number 2: loses the game"), "{pgn}");
}

/// Appendix A.3: one minute in rapid and blitz.
#[test]
fn fide_illegal_move_in_blitz_gives_a_minute() {
    let mut g = with_rules("180+2", FIDE, None);
    let ev = try_move(&mut g, T0, "e2e5").unwrap();
    assert!(matches!(ev[0].event, Event::IllegalMoveCounted { penalty_ms: 60_000, .. }), "{ev:?}");
}

/// 7.5.5: the second illegal move draws when the opponent cannot checkmate by any series of legal moves.
#[test]
fn second_illegal_move_against_a_bare_king_draws() {
    let mut g = with_rules("5400+30", FIDE, Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    // White makes the illegal moves; Black has only a king and cannot mate by any series of legal moves.
    try_move(&mut g, T0, "e1e3").unwrap();
    let ev = try_move(&mut g, T0 + 2_000, "e2d3").unwrap();
    let (result, termination, winner) = ended(&ev).unwrap();
    assert_eq!((result.as_str(), termination.as_str(), winner), ("1/2-1/2", "illegal_move", None));
    match g.outcome() {
        Some(o) => assert!(o.text().en.contains("cannot checkmate"), "{}", o.text().en),
        None => panic!("not over"),
    }
}

/// 7.5.1 with touch-move: the piece moved illegally counts as touched for the move that replaces it.
#[test]
fn the_illegal_move_binds_its_piece_under_touch_move() {
    let mut g = with_rules("5400+30", Rules::OVER_THE_BOARD, None);
    try_move(&mut g, T0, "g1g3").unwrap();
    assert!(matches!(try_move(&mut g, T0, "e2e4"), Err(CommandError::TouchMove { .. })));
    mv(&mut g, T0, "g1f3");
}

/// The seeds' 送王: moving into check (or leaving the king in check) is counted, three lose; other illegal moves
/// are refused and not counted; no time is given.
#[test]
fn song_wang_three_fouls_lose() {
    let fen = "4k3/8/8/8/8/8/3r4/4K2R w K - 0 1";
    let mut g = with_rules("600+0", SONG_WANG, Some(fen));
    // Kf1? walks into nothing; Ke2/Kd1/Kf2 walk into the rook.
    for (i, uci) in ["e1e2", "e1f2"].iter().enumerate() {
        let ev = try_move(&mut g, T0 + i as u64, uci).unwrap();
        match &ev[0].event {
            Event::IllegalMoveCounted { count, limit, penalty_ms, message_zh, .. } => {
                assert_eq!((*count as usize, *limit, *penalty_ms), (i + 1, 3, 0));
                assert!(message_zh.contains("送王"), "{message_zh}");
            }
            e => panic!("{e:?}"),
        }
    }
    // A rook jumping like a knight is refused and not counted.
    assert!(matches!(try_move(&mut g, T0 + 5, "h1g3"), Err(CommandError::IllegalMove { .. })));
    assert_eq!(g.illegal_moves(Color::White), 2);
    let ev = try_move(&mut g, T0 + 6, "e1d1").unwrap();
    let (result, termination, _) = ended(&ev).unwrap();
    assert_eq!((result.as_str(), termination.as_str()), ("0-1", "illegal_move"));
}

/// Incorrect claims: two minutes in standard play (9.5.3), as before.
#[test]
fn incorrect_claim_in_standard_play_gives_two_minutes() {
    let mut g = game("5400+30", false);
    line(&mut g, T0, "g1f3 g8f6");
    let ev = g
        .apply(
            t(T0 + 3_000),
            Command::by(Color::White, Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: None }),
        )
        .unwrap();
    assert!(matches!(ev[0].event, Event::DrawClaimRejected { penalty_ms: 120_000, .. }), "{ev:?}");
}

#[test]
fn rule_sets_are_read_from_the_wire() {
    let a: Action = serde_json::from_str(r#"{"t":"touch","square":"g1"}"#).unwrap();
    assert_eq!(a, Action::Touch { square: "g1".into() });
    assert!(serde_json::from_str::<Action>(r#"{"t":"adjust","square":"g1","x":1}"#).is_err());
    let c: GameConfig = serde_json::from_str(
        r#"{"first_move_timeout_ms":1,"disconnect_timeout_ms":1,"claim_penalty_ms":1,"event_log_len":1}"#,
    )
    .unwrap();
    assert_eq!(c.rules, Rules::ONLINE);
    let _ = MoveInput::uci("e2e4");
}
