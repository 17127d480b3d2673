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

const FIDE: Rules = Rules { illegal_moves: IllegalMoves::Fide, ..Rules::ONLINE };
const SONG_WANG: Rules = Rules { illegal_moves: IllegalMoves::KingIntoCheck, ..Rules::ONLINE };

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
    assert!(json.contains(r#""rules":{"touch_move":true,"illegal_moves":"refused","adjournment":false}"#), "{json}");
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

// ----- adjournment with a sealed move (10.9, 10.15, 10.16 and 13–14 of the older Laws; the Guidelines on adjourned
// games) -----

const ADJOURNABLE: Rules = Rules { adjournment: true, ..Rules::ONLINE };

fn act(g: &mut Game, now: u64, by: Color, a: Action) -> Result<Vec<guoxiang_game::VersionedEvent>, CommandError> {
    g.apply(t(now), Command::by(by, a))
}

/// A classical game after 1. e4 e5 2. Nf3 (White moved at T0 + 3 s), adjourned with Black to seal `text` at T0 + 10 s,
/// to resume at `resume`.
fn sealed(text: &str, resume: u64) -> Game {
    let mut g = with_rules("5400+30", ADJOURNABLE, None);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3");
    act(&mut g, T0 + 4_000, Color::White, Action::AdjournOffer).unwrap();
    let ev = act(&mut g, T0 + 5_000, Color::Black, Action::AdjournOffer).unwrap();
    assert!(matches!(ev[0].event, Event::AdjournmentCalled { to_seal: Color::Black }), "{ev:?}");
    let ev = act(&mut g, T0 + 10_000, Color::Black, Action::Seal { mv: text.into() }).unwrap();
    match &ev[0].event {
        Event::MoveSealed { by, clocks } => {
            assert_eq!(*by, Color::Black);
            // Black's thinking time up to the seal counts: 7 s since White's move.
            assert_eq!(clocks.unwrap().black_ms, 5_400_000 - 7_000);
        }
        e => panic!("{e:?}"),
    }
    assert!(g.is_adjourned());
    act(&mut g, T0 + 11_000, Color::White, Action::ProposeResumption { at_ms: resume }).unwrap();
    let ev = act(&mut g, T0 + 12_000, Color::Black, Action::ProposeResumption { at_ms: resume }).unwrap();
    assert!(matches!(ev[0].event, Event::ResumptionScheduled { at_ms } if at_ms == resume), "{ev:?}");
    g
}

const DAY: u64 = 86_400_000;

#[test]
fn adjournment_needs_the_rules_and_a_call_and_the_move_stays_secret() {
    let mut g = game("5400+30", false);
    line(&mut g, T0, "e2e4 e7e5");
    assert_eq!(
        act(&mut g, T0 + 2_000, Color::White, Action::AdjournOffer).unwrap_err().code(),
        "adjournment_not_allowed"
    );
    let mut g = with_rules("5400+30", ADJOURNABLE, None);
    assert_eq!(act(&mut g, T0, Color::White, Action::AdjournOffer).unwrap_err().code(), "adjournment_not_allowed");
    line(&mut g, T0, "e2e4 e7e5");
    let e = act(&mut g, T0 + 2_000, Color::White, Action::Seal { mv: "Nf3".into() }).unwrap_err();
    assert_eq!(e.code(), "adjournment_not_called");
    act(&mut g, T0 + 2_000, Color::White, Action::AdjournOffer).unwrap();
    assert_eq!(act(&mut g, T0 + 2_000, Color::White, Action::AdjournOffer).unwrap_err().code(), "adjournment_offered");
    // The arbiter may call it at once.
    g.apply(t(T0 + 3_000), Command::CallAdjournment).unwrap();
    assert_eq!(
        act(&mut g, T0 + 3_000, Color::Black, Action::Seal { mv: "Nf6".into() }).unwrap_err().code(),
        "not_your_turn"
    );
    let ev = act(&mut g, T0 + 4_000, Color::White, Action::Seal { mv: "Nf3".into() }).unwrap();
    // Nothing the clients see names the move.
    let json = serde_json::to_string(&ev).unwrap();
    assert!(!json.contains("Nf3"), "{json}");
    assert_eq!(g.moves().len(), 2);
    // Adjourned: no moves; the time must be later than now.
    assert_eq!(try_move(&mut g, T0 + 5_000, "g1f3").unwrap_err().code(), "adjourned");
    let e = act(&mut g, T0 + 5_000, Color::Black, Action::ProposeResumption { at_ms: T0 + 5_000 }).unwrap_err();
    assert_eq!(e.code(), "bad_resumption_time");
    // 10.15/10.16 states survive a restart: the appointment stays where it was.
    g.apply(t(T0 + 6_000), Command::ScheduleResumption { at_ms: T0 + DAY }).unwrap();
    let snap = g.snapshot(t(T0 + 7_000));
    let g2 = Game::restore(snap, t(T0 + 60_000)).unwrap();
    assert_eq!(g2.adjournment().unwrap().resume_at_ms, Some(T0 + DAY));
    assert_eq!(g2.adjournment().unwrap().sealed.as_ref().unwrap().text, "Nf3");
    assert_eq!(g2.next_deadline(t(T0 + 60_000)), Some(t(T0 + DAY)));
}

/// 14.2: at the resumption the envelope is opened with the opponent present, the move played, and the opponent's
/// clock runs from the resumption time; the sealer's time is what it was at the seal.
#[test]
fn the_sealed_move_is_played_at_the_resumption() {
    let resume = T0 + DAY;
    let mut g = sealed("马c6", resume);
    // Both are connected (present): the session starts with the first command at or after the resumption time.
    let ev = g.apply(t(resume + 5_000), Command::Tick).unwrap();
    assert_eq!(types(&ev), ["resumed", "sealed_move_opened", "move_made"]);
    match &ev[1].event {
        Event::SealedMoveOpened { text, valid, .. } => assert_eq!((text.as_str(), *valid), ("马c6", true)),
        e => panic!("{e:?}"),
    }
    assert_eq!(g.moves()[3].san.as_str(), "Nc6");
    let c = g.clocks(t(resume + 5_000)).unwrap();
    assert_eq!(c.black_ms, 5_400_000 - 7_000 + 30_000, "the sealed move earns its increment, nothing more is charged");
    assert_eq!(c.white_ms, 5_400_000 + 30_000 - 1_000 - 5_000, "White's clock ran from the resumption time");
    assert!(!g.is_adjourned() && g.adjournment().is_none());
    mv(&mut g, resume + 6_000, "f1b5");
}

/// 10.16: an ambiguous, false or illegal sealed move loses for the sealer.
#[test]
fn an_invalid_sealed_move_loses() {
    for (text, why) in [("Nd7", "illegal"), ("Nxe9", "false"), ("e7e6", "illegal")] {
        let resume = T0 + DAY;
        let mut g = sealed(text, resume);
        let ev = g.apply(t(resume), Command::Tick).unwrap();
        match &ev[1].event {
            Event::SealedMoveOpened { valid, message_en, .. } => {
                assert!(!valid);
                assert!(message_en.contains(why), "{text}: {message_en}");
            }
            e => panic!("{e:?}"),
        }
        let (result, termination, _) = ended(&ev).unwrap();
        assert_eq!((result.as_str(), termination.as_str()), ("1-0", "sealed_move"), "{text}");
    }
    // Two knights that can both go to d2: "Nd2" is ambiguous.
    let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    let mut g = with_rules("5400+30", ADJOURNABLE, Some(fen));
    line(&mut g, T0, "e1d1 e8d8");
    g.apply(t(T0 + 2_000), Command::CallAdjournment).unwrap();
    act(&mut g, T0 + 3_000, Color::White, Action::Seal { mv: "Nd2".into() }).unwrap();
    g.apply(t(T0 + 4_000), Command::ScheduleResumption { at_ms: T0 + DAY }).unwrap();
    let ev = g.apply(t(T0 + DAY), Command::Tick).unwrap();
    assert!(
        matches!(&ev[1].event, Event::SealedMoveOpened { valid: false, message_en, .. } if message_en.contains("ambiguous")),
        "{ev:?}"
    );
    // Black has a bare king and cannot mate: the sealer's fault draws instead of losing (10.5: a lone king never
    // wins).
    assert_eq!(ended(&ev).unwrap(), ("1/2-1/2".to_owned(), "sealed_move".to_owned(), None));
}

/// 10.15 (1): a sealed mate wins even if the sealer stays away; the opponent must be there for the opening.
#[test]
fn a_sealed_mate_wins_in_the_opponents_presence() {
    let mut g = with_rules("5400+30", ADJOURNABLE, None);
    line(&mut g, T0, "f2f3 e7e5 g2g4");
    g.apply(t(T0 + 3_000), Command::CallAdjournment).unwrap();
    act(&mut g, T0 + 4_000, Color::Black, Action::Seal { mv: "Qh4#".into() }).unwrap();
    g.apply(t(T0 + 5_000), Command::ScheduleResumption { at_ms: T0 + DAY }).unwrap();
    g.apply(t(T0 + 6_000), Command::Disconnected { who: Color::White, since: t(T0 + 6_000) }).unwrap();
    g.apply(t(T0 + 6_000), Command::Disconnected { who: Color::Black, since: t(T0 + 6_000) }).unwrap();
    // White is not there: the session starts, White's clock runs, the envelope stays closed.
    let ev = g.apply(t(T0 + DAY + 1_000), Command::Tick).unwrap();
    assert_eq!(types(&ev), ["resumed"]);
    assert_eq!(try_move(&mut g, T0 + DAY + 1_500, "d8h4").unwrap_err().code(), "sealed_move_pending");
    // White arrives: the envelope is opened, and the mate ends the game although Black is absent.
    let ev = g.apply(t(T0 + DAY + 600_000), Command::Reconnected { who: Color::White }).unwrap();
    assert_eq!(ended(&ev).unwrap(), ("0-1".to_owned(), "checkmate".to_owned(), Some(Color::Black)));
}

/// 10.15: more than an hour late loses — the sealer's opponent (the envelope never opened), or the sealer (the
/// game otherwise goes on); both late decides nothing.
#[test]
fn more_than_an_hour_late_loses() {
    let resume = T0 + DAY;
    let hour = 3_600_000;
    // The sealer's opponent (White) does not come.
    let mut g = sealed("Nc6", resume);
    g.apply(t(T0 + 20_000), Command::Disconnected { who: Color::White, since: t(T0 + 20_000) }).unwrap();
    g.apply(t(resume), Command::Tick).unwrap();
    assert_eq!(g.next_deadline(t(resume)), Some(t(resume + hour + 1)));
    assert!(g.apply(t(resume + hour), Command::Tick).unwrap().is_empty());
    let ev = g.apply(t(resume + hour + 1), Command::Tick).unwrap();
    assert_eq!(ended(&ev).unwrap(), ("0-1".to_owned(), "late_arrival".to_owned(), Some(Color::Black)));
    // The sealer (Black) does not come: the move is opened with White there, White replies, Black loses at the hour.
    let mut g = sealed("Nc6", resume);
    g.apply(t(T0 + 20_000), Command::Disconnected { who: Color::Black, since: t(T0 + 20_000) }).unwrap();
    let ev = g.apply(t(resume + 1_000), Command::Tick).unwrap();
    assert_eq!(types(&ev), ["resumed", "sealed_move_opened", "move_made"]);
    mv(&mut g, resume + 2_000, "f1b5");
    let ev = g.apply(t(resume + hour + 1), Command::Tick).unwrap();
    assert_eq!(ended(&ev).unwrap(), ("1-0".to_owned(), "late_arrival".to_owned(), Some(Color::White)));
    // A late arrival within the hour is in time.
    let mut g = sealed("Nc6", resume);
    g.apply(t(T0 + 20_000), Command::Disconnected { who: Color::White, since: t(T0 + 20_000) }).unwrap();
    g.apply(t(resume), Command::Tick).unwrap();
    let ev = g.apply(t(resume + hour - 1), Command::Reconnected { who: Color::White }).unwrap();
    assert!(types(&ev).contains(&"move_made".to_owned()), "{ev:?}");
    assert!(g.apply(t(resume + hour + 10_000), Command::Tick).unwrap().is_empty());
    assert!(g.outcome().is_none());
    // Both late: no automatic result (the arbiter decides).
    let mut g = sealed("Nc6", resume);
    for who in Color::ALL {
        g.apply(t(T0 + 20_000), Command::Disconnected { who, since: t(T0 + 20_000) }).unwrap();
    }
    g.apply(t(resume + hour + 10_000), Command::Tick).unwrap();
    assert!(g.outcome().is_none());
    // (White's clock has run since the resumption: at 90 minutes White's flag falls, which does decide.)
    let ev = g.apply(t(resume + 2 * hour), Command::Tick).unwrap();
    assert_eq!(ended(&ev).unwrap().1, "time_forfeit");
}

/// 10.9 and 14.2 (1): during the adjournment a draw may be offered and agreed, or a player resign — the envelope
/// stays closed; the sealer's offer stands until the opponent has seen the move and moved.
#[test]
fn draws_and_resignations_during_the_adjournment() {
    let resume = T0 + DAY;
    let mut g = sealed("Nc6", resume);
    act(&mut g, T0 + 20_000, Color::Black, Action::OfferDraw).unwrap();
    let ev = act(&mut g, T0 + 21_000, Color::White, Action::AcceptDraw).unwrap();
    assert_eq!(ended(&ev).unwrap().1, "agreement");
    assert!(!serde_json::to_string(&ev).unwrap().contains("Nc6"));
    // The sealer's offer, left open, stands until White has seen the move and moved.
    let mut g = sealed("Nc6", resume);
    act(&mut g, T0 + 20_000, Color::Black, Action::OfferDraw).unwrap();
    g.apply(t(resume), Command::Tick).unwrap();
    assert_eq!(g.draw_offer(), Some(Color::Black));
    let ev = act(&mut g, resume + 1_000, Color::White, Action::AcceptDraw).unwrap();
    assert_eq!(ended(&ev).unwrap().1, "agreement");
    // Resigning while adjourned.
    let mut g = sealed("Nc6", resume);
    let ev = act(&mut g, T0 + 20_000, Color::White, Action::Resign).unwrap();
    assert_eq!(ended(&ev).unwrap().0, "0-1");
}

/// The flag of the sealer's opponent falls before they come: the envelope is opened to decide, and an invalid
/// sealed move loses first.
#[test]
fn a_flag_before_the_opening() {
    let mut g = with_rules("600+0", ADJOURNABLE, None);
    line(&mut g, T0, "e2e4 e7e5 g1f3");
    g.apply(t(T0 + 3_000), Command::CallAdjournment).unwrap();
    act(&mut g, T0 + 4_000, Color::Black, Action::Seal { mv: "Qxh9".into() }).unwrap();
    g.apply(t(T0 + 5_000), Command::ScheduleResumption { at_ms: T0 + DAY }).unwrap();
    g.apply(t(T0 + 6_000), Command::Disconnected { who: Color::White, since: t(T0 + 6_000) }).unwrap();
    g.apply(t(T0 + DAY), Command::Tick).unwrap();
    let ev = g.apply(t(T0 + DAY + 700_000), Command::Tick).unwrap();
    assert_eq!(ended(&ev).unwrap(), ("1-0".to_owned(), "sealed_move".to_owned(), Some(Color::White)));
}

// ----- the pawn war of the course (`first_promotion`, not a FIDE rule) -----

/// The course's pawn war: the first promotion wins at once, said as such in zh and en, and the rule set's name goes
/// both ways. Without the rule the same promotion is an ordinary move.
#[test]
fn in_a_pawn_war_the_first_promotion_wins() {
    let pawn_war = Rules { first_promotion: true, ..Rules::ONLINE };
    assert_eq!(pawn_war.name(), "first_promotion");
    assert_eq!(Rules::parse("first_promotion"), Ok(pawn_war));
    assert_eq!(Rules::parse("touch_move+first_promotion").map(|r| r.name()), Ok("touch_move+first_promotion".into()));
    // White's a-pawn runs; Black's h-pawn is a move behind.
    let fen = "8/P7/6k1/8/8/8/7p/4K3 w - - 0 1";
    for (rules, ends) in [(pawn_war, true), (Rules::ONLINE, false)] {
        let mut g = with_rules("-", rules, Some(fen));
        let ev = try_move(&mut g, T0 + 1_000, "a7a8q").expect("a8=Q");
        if ends {
            assert_eq!(ended(&ev), Some(("1-0".to_owned(), "promotion".to_owned(), Some(Color::White))));
            let text = ev.iter().find_map(|e| match &e.event {
                Event::GameEnded { message_zh, message_en, .. } => Some((message_zh.clone(), message_en.clone())),
                _ => None,
            });
            assert_eq!(
                text,
                Some((
                    "白方先让兵升变，白胜（兵的战争）".into(),
                    "White wins: the first to promote a pawn (pawn war)".into()
                ))
            );
            assert!(try_move(&mut g, T0 + 2_000, "h2h1q").is_err(), "the game is over");
            assert!(g.to_pgn(&PgnTags::default()).contains("[Result \"1-0\"]"));
        } else {
            assert_eq!(ended(&ev), None);
            assert!(try_move(&mut g, T0 + 2_000, "h2h1q").is_ok(), "an ordinary move");
        }
    }
}
