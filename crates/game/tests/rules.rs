//! The rules of the state machine: endings, draw offers, claims, aborts, takebacks, disconnections.

mod common;

use common::*;
use guoxiang_game::{
    AbortReason, Action, ClaimKind, Color, Command, CommandError, Event, MoveInput, Outcome, Status, Termination,
};

#[test]
fn fools_mate_ends_the_game_with_events() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "f2f3 e7e5 g2g4");
    let ev = mv(&mut g, T0 + 10_000, "d8h4");
    assert_eq!(types(&ev), ["move_made", "game_ended"]);
    match &ev[0].event {
        Event::MoveMade { by, uci, san, ply, fen, .. } => {
            assert_eq!((*by, uci.as_str(), san.as_str(), *ply), (Color::Black, "d8h4", "Qh4#", 4));
            assert_eq!(fen, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(ended(&ev), Some(("0-1".into(), "checkmate".into(), Some(Color::Black))));
    match &ev[1].event {
        Event::GameEnded { message_en, message_zh, .. } => {
            assert_eq!(message_en, "Black wins: checkmate");
            assert_eq!(message_zh, "黑方将死白方，黑胜");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(g.status(), Status::Finished { outcome: Outcome::win(Color::Black, Termination::Checkmate) });
    assert_eq!(g.version(), 5);
    let err = g.apply(t(T0 + 11_000), mv_cmd(Color::White, "e2e4")).unwrap_err();
    assert!(matches!(err, CommandError::GameOver(_)));
    assert_eq!(g.version(), 5, "a refused command emits nothing");
}

#[test]
fn stalemate_is_automatic() {
    let mut g = from_fen("300+0", "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1");
    let ev = mv(&mut g, T0 + 1_000, "e7f7");
    assert_eq!(types(&ev), ["move_made", "game_ended"]);
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "stalemate".into(), None)));
}

#[test]
fn moves_are_validated() {
    let mut g = game("180+2", true);
    let v = g.version();
    assert_eq!(
        g.apply(t(T0), mv_cmd(Color::Black, "e7e5")).unwrap_err(),
        CommandError::NotYourTurn { by: Color::Black }
    );
    let e = g.apply(t(T0), mv_cmd(Color::White, "e2e5")).unwrap_err();
    assert_eq!(e.code(), "illegal_move");
    assert_eq!(e.to_string(), "e2e5 is not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(e.message(guoxiang_core::Lang::Zh).contains("不合规则"));
    let e = g.apply(t(T0), mv_cmd(Color::White, "e2")).unwrap_err();
    assert_eq!(e.code(), "bad_move_text");
    let by_san = Command::Player {
        by: Color::White,
        action: Action::Move { mv: MoveInput::san("Nf3"), offer_draw: false },
        lag_ms: 0,
    };
    assert_eq!(g.version(), v);
    let ev = g.apply(t(T0 + 1), by_san).unwrap();
    assert!(matches!(&ev[0].event, Event::MoveMade { uci, .. } if uci == "g1f3"));
}

#[test]
fn draw_offer_with_a_move_then_accepted() {
    let mut g = game("180+2", true);
    let ev = g
        .apply(
            t(T0 + 1_000),
            Command::Player {
                by: Color::White,
                action: Action::Move { mv: MoveInput::uci("e2e4"), offer_draw: true },
                lag_ms: 0,
            },
        )
        .unwrap();
    assert_eq!(types(&ev), ["move_made", "draw_offered"]);
    assert_eq!(ev[1].event, Event::DrawOffered { by: Color::White });
    assert_eq!(g.draw_offer(), Some(Color::White));
    // The offerer cannot accept their own offer.
    assert_eq!(
        g.apply(t(T0 + 1_500), Command::by(Color::White, Action::AcceptDraw)).unwrap_err(),
        CommandError::NoDrawOffer { by: Color::White }
    );
    let ev = g.apply(t(T0 + 2_000), Command::by(Color::Black, Action::AcceptDraw)).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "agreement".into(), None)));
    assert_eq!(g.outcome(), Some(Outcome::draw(Termination::Agreement)));
}

#[test]
fn draw_offer_on_the_opponents_turn_and_explicit_decline() {
    let mut g = game("180+2", true);
    mv(&mut g, T0 + 1_000, "e2e4");
    // Black to move: White may offer now (it is as if made right after the move).
    let ev = g.apply(t(T0 + 1_500), Command::by(Color::White, Action::OfferDraw)).unwrap();
    assert_eq!(events(&ev), [Event::DrawOffered { by: Color::White }]);
    let ev = g.apply(t(T0 + 2_000), Command::by(Color::Black, Action::DeclineDraw)).unwrap();
    assert_eq!(events(&ev), [Event::DrawDeclined { by: Color::Black }]);
    assert_eq!(g.draw_offer(), None);
    assert!(!g.may_offer_draw(Color::White));
    assert!(g.may_offer_draw(Color::Black));
}

#[test]
fn draw_offer_on_ones_own_turn_must_come_with_a_move() {
    let mut g = game("180+2", true);
    assert_eq!(
        g.apply(t(T0 + 1_000), Command::by(Color::White, Action::OfferDraw)).unwrap_err(),
        CommandError::OfferWithMove { by: Color::White }
    );
    assert_eq!(
        g.apply(t(T0 + 1_000), Command::by(Color::Black, Action::DeclineDraw)).unwrap_err(),
        CommandError::NoDrawOffer { by: Color::Black }
    );
    assert_eq!(g.version(), 0);
}

#[test]
fn a_move_declines_the_pending_offer() {
    let mut g = game("180+2", true);
    g.apply(
        t(T0 + 1_000),
        Command::Player {
            by: Color::White,
            action: Action::Move { mv: MoveInput::uci("e2e4"), offer_draw: true },
            lag_ms: 0,
        },
    )
    .unwrap();
    let ev = mv(&mut g, T0 + 2_000, "e7e5");
    assert_eq!(types(&ev), ["move_made", "draw_declined"]);
    assert_eq!(ev[1].event, Event::DrawDeclined { by: Color::Black });
    assert_eq!(g.draw_offer(), None);
    assert!(!g.may_offer_draw(Color::White));
    // Offering a second time at once is refused, as is the same offer made with a move (which is then not played).
    let v = g.version();
    assert_eq!(
        g.apply(
            t(T0 + 3_000),
            Command::Player {
                by: Color::White,
                action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: true },
                lag_ms: 0
            }
        )
        .unwrap_err(),
        CommandError::ReofferNotAllowed { by: Color::White }
    );
    assert_eq!((g.version(), g.moves().len()), (v, 2));
}

#[test]
fn reoffer_allowed_only_after_the_opponent_has_offered() {
    let mut g = game("180+2", true);
    g.apply(
        t(T0 + 1_000),
        Command::Player {
            by: Color::White,
            action: Action::Move { mv: MoveInput::uci("e2e4"), offer_draw: true },
            lag_ms: 0,
        },
    )
    .unwrap();
    g.apply(t(T0 + 1_500), Command::by(Color::Black, Action::DeclineDraw)).unwrap();
    mv(&mut g, T0 + 2_000, "e7e5");
    mv(&mut g, T0 + 3_000, "g1f3");
    assert_eq!(
        g.apply(t(T0 + 3_500), Command::by(Color::White, Action::OfferDraw)).unwrap_err(),
        CommandError::ReofferNotAllowed { by: Color::White }
    );
    // Black offers with a move; White declines by moving.
    g.apply(
        t(T0 + 4_000),
        Command::Player {
            by: Color::Black,
            action: Action::Move { mv: MoveInput::uci("b8c6"), offer_draw: true },
            lag_ms: 0,
        },
    )
    .unwrap();
    assert!(g.may_offer_draw(Color::White), "the opponent has offered: White may offer again");
    mv(&mut g, T0 + 5_000, "f1c4");
    assert!(!g.may_offer_draw(Color::Black));
    let ev = g.apply(t(T0 + 5_500), Command::by(Color::White, Action::OfferDraw)).unwrap();
    assert_eq!(events(&ev), [Event::DrawOffered { by: Color::White }]);
    // Black's own offer while White's is pending is an acceptance.
    let ev = g.apply(t(T0 + 6_000), Command::by(Color::Black, Action::OfferDraw)).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "agreement".into(), None)));
}

#[test]
fn resign() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let ev = g.apply(t(T0 + 5_000), Command::by(Color::White, Action::Resign)).unwrap();
    assert_eq!(ended(&ev), Some(("0-1".into(), "resignation".into(), Some(Color::Black))));
    match &ev[0].event {
        Event::GameEnded { message_en, message_zh, clocks, .. } => {
            assert_eq!(message_en, "Black wins: White resigns");
            assert_eq!(message_zh, "白方认输，黑胜");
            // White's clock ran from the second move (T0 + 2 s) to the resignation.
            assert_eq!(clocks.unwrap().white_ms, 180_000 - 3_000);
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn abort_before_both_have_moved() {
    let mut g = game("180+2", true);
    mv(&mut g, T0 + 1_000, "e2e4");
    let ev = g.apply(t(T0 + 2_000), Command::by(Color::Black, Action::Abort)).unwrap();
    assert_eq!(types(&ev), ["aborted"]);
    match &ev[0].event {
        Event::Aborted { reason, by, .. } => assert_eq!((reason.as_str(), *by), ("player", Color::Black)),
        e => panic!("{e:?}"),
    }
    assert_eq!(g.status(), Status::Aborted { reason: AbortReason::Player { by: Color::Black } });
    assert_eq!(g.outcome(), None);
    assert_eq!(g.apply(t(T0 + 3_000), mv_cmd(Color::Black, "e7e5")).unwrap_err(), CommandError::Aborted);
}

#[test]
fn no_abort_after_both_have_moved() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    assert_eq!(g.status(), Status::Started);
    assert_eq!(
        g.apply(t(T0 + 3_000), Command::by(Color::White, Action::Abort)).unwrap_err(),
        CommandError::CannotAbort
    );
}

#[test]
fn first_move_timeout_aborts() {
    let mut g = game("180+2", true);
    assert_eq!(g.first_move_deadline(), Some(t(T0 + 30_000)));
    assert!(g.apply(t(T0 + 30_000), Command::Tick).unwrap().is_empty());
    let ev = g.apply(t(T0 + 30_001), Command::Tick).unwrap();
    assert_eq!(g.status(), Status::Aborted { reason: AbortReason::FirstMoveTimeout { side: Color::White } });
    assert!(matches!(&ev[0].event, Event::Aborted { reason, by: Color::White, .. } if reason == "first_move_timeout"));
}

#[test]
fn second_players_first_move_timeout_aborts_even_on_a_late_move() {
    let mut g = game("180+2", true);
    mv(&mut g, T0 + 10_000, "e2e4");
    // Black's 30 s count from White's move; a move arriving later aborts instead of being played.
    let ev = g.apply(t(T0 + 40_001), mv_cmd(Color::Black, "e7e5")).unwrap();
    assert_eq!(types(&ev), ["aborted"]);
    assert_eq!(g.status(), Status::Aborted { reason: AbortReason::FirstMoveTimeout { side: Color::Black } });
    assert_eq!(g.moves().len(), 1);
}

#[test]
fn threefold_claim_with_intended_move() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    // Black writes down ...Ng8, which would repeat the start position a third time.
    let v = g.version();
    let ev = g
        .apply(
            t(T0 + 9_000),
            Command::by(
                Color::Black,
                Action::ClaimDraw { kind: ClaimKind::ThreefoldRepetition, intended: Some(MoveInput::uci("f6g8")) },
            ),
        )
        .unwrap();
    assert_eq!(types(&ev), ["game_ended"]);
    assert_eq!(ev[0].version, v + 1);
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "threefold_repetition".into(), None)));
    assert_eq!(g.outcome().unwrap().termination, Termination::ThreefoldRepetition { claimant: Color::Black });
    assert_eq!(g.moves().len(), 7, "the intended move is not played");
}

#[test]
fn threefold_claim_of_the_current_position() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    let cmd = |by| Command::by(by, Action::ClaimDraw { kind: ClaimKind::ThreefoldRepetition, intended: None });
    assert_eq!(g.apply(t(T0 + 9_500), cmd(Color::Black)).unwrap_err(), CommandError::NotYourTurn { by: Color::Black });
    let ev = g.apply(t(T0 + 10_000), cmd(Color::White)).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "threefold_repetition".into(), None)));
}

#[test]
/// In blitz the penalty is one minute (Appendix A.3, which blitz follows); two in standard play (see
/// `rule_sets.rs`).
fn incorrect_claim_gives_the_opponent_a_minute_in_blitz_and_plays_the_intended_move() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "g1f3 g8f6 f3g1"); // clocks start at T0 + 2 s; White used 1 s
    let ev = g
        .apply(
            t(T0 + 5_000),
            Command::by(
                Color::Black,
                Action::ClaimDraw { kind: ClaimKind::ThreefoldRepetition, intended: Some(MoveInput::uci("f6g8")) },
            ),
        )
        .unwrap();
    assert_eq!(types(&ev), ["draw_claim_rejected", "clock_update", "move_made"]);
    match &ev[0].event {
        Event::DrawClaimRejected { by, kind, penalty_ms, message_en, message_zh } => {
            assert_eq!((*by, kind.as_str(), *penalty_ms), (Color::Black, "threefold_repetition", 60_000));
            assert_eq!(
                message_en,
                "incorrect claim: after the intended move, the position would have occurred only 2 time(s), not three"
            );
            assert!(message_zh.starts_with("和棋要求不成立"));
        }
        e => panic!("{e:?}"),
    }
    match &ev[2].event {
        Event::MoveMade { uci, clocks, .. } => {
            assert_eq!(uci, "f6g8");
            let c = clocks.unwrap();
            assert_eq!((c.white_ms, c.black_ms), (300_000 - 1_000 + 60_000, 300_000 - 2_000));
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(g.turn(), Color::White);
    assert!(g.outcome().is_none());
}

#[test]
fn incorrect_claim_without_a_move_lets_the_game_go_on() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let ev = g
        .apply(
            t(T0 + 3_000),
            Command::by(Color::White, Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: None }),
        )
        .unwrap();
    assert_eq!(types(&ev), ["draw_claim_rejected", "clock_update"]);
    assert_eq!(
        ev[1].event,
        // Blitz: one minute (Appendix A.3).
        Event::ClockUpdate { clocks: Some(guoxiang_game::Clocks { white_ms: 300_000 - 1_000, black_ms: 360_000 }) }
    );
    assert_eq!(g.turn(), Color::White);
    assert_eq!(g.status(), Status::Started);
}

#[test]
fn fifty_move_claim() {
    // 99 half-moves without a pawn move or capture: White claims with the 100th.
    let mut g = from_fen("300+0", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let ev = g
        .apply(
            t(T0 + 1_000),
            Command::by(
                Color::White,
                Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: Some(MoveInput::uci("a1a2")) },
            ),
        )
        .unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "fifty_moves".into(), None)));
    // And the claim of the current position.
    let mut g = from_fen("300+0", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    let ev = g
        .apply(
            t(T0 + 1_000),
            Command::by(Color::White, Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: None }),
        )
        .unwrap();
    assert_eq!(g.outcome().unwrap().termination, Termination::FiftyMoves { claimant: Color::White });
    assert_eq!(types(&ev), ["game_ended"]);
}

#[test]
fn fivefold_repetition_is_automatic() {
    let mut g = game("300+0", true);
    let dance = "g1f3 g8f6 f3g1 f6g8 ".repeat(4);
    let last = dance.split_whitespace().count();
    let mut ev = Vec::new();
    for (i, u) in dance.split_whitespace().enumerate() {
        ev = mv(&mut g, T0 + 1_000 * (i as u64 + 1), u);
        if i + 1 < last {
            assert!(g.outcome().is_none(), "over after {} plies", i + 1);
        }
    }
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "fivefold_repetition".into(), None)));
}

#[test]
fn seventy_five_moves_is_automatic() {
    let mut g = from_fen("300+0", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100");
    let ev = mv(&mut g, T0 + 1_000, "a1a2");
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "seventy_five_moves".into(), None)));
}

#[test]
fn takeback_accepted_in_a_casual_game() {
    let mut g = game("300+0", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3"); // clocks from T0 + 2 s; White used 1 s
    // White asks on Black's turn: one ply back.
    let ev = g.apply(t(T0 + 4_000), Command::by(Color::White, Action::TakebackOffer)).unwrap();
    assert_eq!(events(&ev), [Event::TakebackOffered { by: Color::White }]);
    let before = g.clocks(t(T0 + 5_000)).unwrap();
    let ev = g.apply(t(T0 + 5_000), Command::by(Color::Black, Action::TakebackAccept)).unwrap();
    match &ev[0].event {
        Event::TakebackDone { plies, fen, clocks } => {
            assert_eq!(*plies, 1);
            assert_eq!(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
            assert_eq!(*clocks, Some(before), "the times stay as they are");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!((g.turn(), g.moves().len()), (Color::White, 2));
    // White's clock runs again from now.
    assert_eq!(g.clocks(t(T0 + 6_000)).unwrap().white_ms, before.white_ms - 1_000);
    assert_eq!(g.clocks(t(T0 + 6_000)).unwrap().black_ms, before.black_ms);
    mv(&mut g, T0 + 6_000, "b1c3");
}

#[test]
fn takeback_on_ones_own_turn_undoes_two_plies() {
    let mut g = game("300+0", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3 b8c6");
    // White to move asks: Nc6 and Nf3 go.
    g.apply(t(T0 + 5_000), Command::by(Color::White, Action::TakebackOffer)).unwrap();
    let ev = g.apply(t(T0 + 6_000), Command::by(Color::Black, Action::TakebackAccept)).unwrap();
    assert!(matches!(ev[0].event, Event::TakebackDone { plies: 2, .. }));
    assert_eq!(g.moves().iter().map(|m| m.uci.as_str()).collect::<Vec<_>>(), ["e2e4", "e7e5"]);
    assert_eq!(g.turn(), Color::White);
}

#[test]
fn takeback_to_before_both_first_moves_stops_the_clock() {
    let mut g = game("300+0", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 3_000), Command::by(Color::Black, Action::TakebackOffer)).unwrap();
    g.apply(t(T0 + 4_000), Command::by(Color::White, Action::TakebackAccept)).unwrap();
    assert_eq!(g.status(), guoxiang_game::Status::Created);
    assert_eq!(g.clock().state(), guoxiang_clock::ClockState::NotStarted);
    assert_eq!(g.turn(), Color::Black);
    // White's 2 s of thinking before the takeback stay charged.
    assert_eq!(g.clocks(t(T0 + 9_000)).unwrap().white_ms, 298_000);
}

#[test]
fn takeback_declined_and_cancelled_by_a_move() {
    let mut g = game("300+0", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 3_000), Command::by(Color::Black, Action::TakebackOffer)).unwrap();
    assert_eq!(
        g.apply(t(T0 + 3_100), Command::by(Color::Black, Action::TakebackOffer)).unwrap_err(),
        CommandError::TakebackAlreadyOffered { by: Color::Black }
    );
    let ev = g.apply(t(T0 + 3_500), Command::by(Color::White, Action::TakebackDecline)).unwrap();
    assert_eq!(events(&ev), [Event::TakebackDeclined { by: Color::White }]);
    g.apply(t(T0 + 3_600), Command::by(Color::Black, Action::TakebackOffer)).unwrap();
    let ev = mv(&mut g, T0 + 4_000, "g1f3");
    assert_eq!(types(&ev), ["move_made", "takeback_cancelled"]);
    assert_eq!(g.takeback_offer(), None);
}

#[test]
fn takeback_refused_in_a_rated_game() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    assert_eq!(
        g.apply(t(T0 + 3_000), Command::by(Color::White, Action::TakebackOffer)).unwrap_err(),
        CommandError::TakebackInRated
    );
}

#[test]
fn takeback_needs_a_move_of_ones_own() {
    let mut g = game("300+0", false);
    mv(&mut g, T0 + 1_000, "e2e4");
    assert_eq!(
        g.apply(t(T0 + 2_000), Command::by(Color::Black, Action::TakebackOffer)).unwrap_err(),
        CommandError::NothingToTakeBack { by: Color::Black }
    );
}

#[test]
fn victory_claim_against_a_disconnected_opponent() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let claim = Command::by(Color::White, Action::ClaimVictory);
    assert_eq!(
        g.apply(t(T0 + 3_000), claim.clone()).unwrap_err(),
        CommandError::OpponentConnected { by: Color::White }
    );
    let ev = g.apply(t(T0 + 3_000), Command::Disconnected { who: Color::Black, since: t(T0 + 2_500) }).unwrap();
    assert_eq!(events(&ev), [Event::PlayerDisconnected { who: Color::Black }]);
    assert_eq!(
        g.apply(t(T0 + 62_499), claim.clone()).unwrap_err(),
        CommandError::ClaimTooEarly { by: Color::White, remaining_ms: 1 }
    );
    let ev = g.apply(t(T0 + 62_500), claim).unwrap();
    assert_eq!(ended(&ev), Some(("1-0".into(), "abandoned".into(), Some(Color::White))));
}

#[test]
fn reconnection_withdraws_the_right_to_claim() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 3_000), Command::Disconnected { who: Color::Black, since: t(T0 + 3_000) }).unwrap();
    let ev = g.apply(t(T0 + 4_000), Command::Reconnected { who: Color::Black }).unwrap();
    assert_eq!(events(&ev), [Event::PlayerReconnected { who: Color::Black }]);
    assert_eq!(
        g.apply(t(T0 + 70_000), Command::by(Color::White, Action::ClaimVictory)).unwrap_err(),
        CommandError::OpponentConnected { by: Color::White }
    );
}

#[test]
fn victory_claim_is_a_draw_when_the_claimant_cannot_mate() {
    let mut g = from_fen("300+0", "q3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    line(&mut g, T0 + 1_000, "e1d2 e8d7");
    g.apply(t(T0 + 3_000), Command::Disconnected { who: Color::Black, since: t(T0 + 3_000) }).unwrap();
    let ev = g.apply(t(T0 + 63_000), Command::by(Color::White, Action::ClaimVictory)).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "abandoned".into(), None)));
    match &ev[0].event {
        Event::GameEnded { message_en, .. } => assert!(message_en.contains("cannot checkmate"), "{message_en}"),
        e => panic!("{e:?}"),
    }
}

#[test]
fn victory_claim_before_both_moved_is_refused() {
    let mut g = game("300+0", true);
    g.apply(t(T0), Command::Disconnected { who: Color::Black, since: t(T0) }).unwrap();
    assert_eq!(
        g.apply(t(T0 + 1_000), Command::by(Color::White, Action::ClaimVictory)).unwrap_err(),
        CommandError::NotStarted
    );
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    let mut g =
        guoxiang_game::Game::new(setup("300+0", false, guoxiang_game::Variant::Chess960 { fen: fen.into() }), t(T0))
            .unwrap();
    let ev = mv(&mut g, T0 + 1_000, "b1h1");
    match &ev[0].event {
        Event::MoveMade { uci, san, fen, .. } => {
            assert_eq!((uci.as_str(), san.as_str()), ("b1h1", "O-O"));
            assert!(fen.starts_with("rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b"), "{fen}");
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_takeback_clears_a_pending_draw_offer() {
    let mut g = game("300+0", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(
        t(T0 + 3_000),
        Command::Player {
            by: Color::White,
            action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: true },
            lag_ms: 0,
        },
    )
    .unwrap();
    g.apply(t(T0 + 3_500), Command::by(Color::White, Action::TakebackOffer)).unwrap();
    // Black's takeback request while White's is pending accepts it.
    let ev = g.apply(t(T0 + 4_000), Command::by(Color::Black, Action::TakebackOffer)).unwrap();
    assert!(matches!(ev[0].event, Event::TakebackDone { plies: 1, .. }));
    assert_eq!(g.draw_offer(), None);
    assert_eq!(
        g.apply(t(T0 + 4_500), Command::by(Color::Black, Action::AcceptDraw)).unwrap_err(),
        CommandError::NoDrawOffer { by: Color::Black }
    );
}

#[test]
fn resigning_is_possible_during_an_adjournment() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 3_000), Command::Adjourn).unwrap();
    assert_eq!(
        g.apply(t(T0 + 4_000), Command::by(Color::Black, Action::OfferDraw)).unwrap_err(),
        CommandError::Adjourned
    );
    let ev = g.apply(t(T0 + 5_000), Command::by(Color::Black, Action::Resign)).unwrap();
    assert_eq!(ended(&ev), Some(("1-0".into(), "resignation".into(), Some(Color::White))));
    assert!(!g.is_adjourned());
}

#[test]
fn error_messages_exist_in_both_languages() {
    let e = CommandError::ReofferNotAllowed { by: Color::White };
    assert_eq!(e.code(), "reoffer_not_allowed");
    assert_eq!(e.text().zh, "白方的提和已被拒绝，须等对方也提和一次以后才能再次提和");
    assert_eq!(
        e.to_string(),
        "White's last draw offer was declined; you may offer again only after your opponent has offered a draw"
    );
    let e = CommandError::ClaimTooEarly { by: Color::Black, remaining_ms: 1_500 };
    assert_eq!(e.text().en, "the opponent has not been gone long enough: you can claim in 1.5 s");
    assert_eq!(e.text().zh, "对手离开的时间还不够长：1.5 秒后可以要求判胜");
}

#[test]
fn claimable_draws_and_victory_claim_time() {
    let mut g = game("300+0", true);
    line(&mut g, T0 + 1_000, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert!(g.claimable_draws().is_empty());
    mv(&mut g, T0 + 9_000, "f6g8");
    assert_eq!(g.claimable_draws(), [ClaimKind::ThreefoldRepetition]);
    assert_eq!(g.victory_claimable_at(Color::White), None);
    g.apply(t(T0 + 9_500), Command::Disconnected { who: Color::Black, since: t(T0 + 9_400) }).unwrap();
    assert_eq!(g.victory_claimable_at(Color::White), Some(t(T0 + 69_400)));
    assert_eq!(g.victory_claimable_at(Color::Black), None);
}

#[test]
fn a_rematch_is_offered_answered_and_agreed_only_after_the_game() {
    let mut g = game("180+2", false);
    let offer = |by| Command::by(by, Action::RematchOffer);
    assert_eq!(g.apply(t(T0), offer(Color::White)).unwrap_err(), CommandError::NotOver);
    line(&mut g, T0 + 1_000, "f2f3 e7e5 g2g4 d8h4");
    assert!(g.is_over());
    let v = g.version();
    assert_eq!(
        g.apply(t(T0 + 9_000), Command::by(Color::Black, Action::RematchAccept)).unwrap_err(),
        CommandError::NoRematchOffer { by: Color::Black }
    );
    assert_eq!(types(&g.apply(t(T0 + 9_000), offer(Color::White)).unwrap()), ["rematch_offered"]);
    assert_eq!(g.rematch_offer(), Some(Color::White));
    assert_eq!(
        g.apply(t(T0 + 9_000), offer(Color::White)).unwrap_err(),
        CommandError::RematchAlreadyOffered { by: Color::White }
    );
    // Declined, then offered by the other side and accepted by offering back.
    let ev = g.apply(t(T0 + 9_500), Command::by(Color::Black, Action::RematchDecline)).unwrap();
    assert_eq!(types(&ev), ["rematch_declined"]);
    assert_eq!(g.rematch_offer(), None);
    g.apply(t(T0 + 10_000), offer(Color::Black)).unwrap();
    let ev = g.apply(t(T0 + 10_500), offer(Color::White)).unwrap();
    assert_eq!(types(&ev), ["rematch_agreed"]);
    assert!(g.rematch_agreed());
    assert_eq!(g.version(), v + 4);
    assert_eq!(g.apply(t(T0 + 11_000), offer(Color::Black)).unwrap_err().code(), "rematch_done");
    // The state survives a restore.
    let r = guoxiang_game::Game::restore(g.snapshot(t(T0 + 12_000)), t(T0 + 12_000)).unwrap();
    assert!(r.rematch_agreed());
}

#[test]
fn a_computer_opponent_accepts_a_rematch_at_once() {
    let mut s = setup("180+2", false, guoxiang_game::Variant::Standard);
    s.black = guoxiang_game::PlayerRef { is_engine: true, engine_level: Some(3), ..s.black };
    let mut g = guoxiang_game::Game::new(s, t(T0)).unwrap();
    g.apply(t(T0 + 500), Command::by(Color::White, Action::Abort)).unwrap();
    let ev = g.apply(t(T0 + 1_000), Command::by(Color::White, Action::RematchOffer)).unwrap();
    assert_eq!(types(&ev), ["rematch_agreed"]);
}
