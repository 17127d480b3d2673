//! The code enums (shown as string unions in TypeScript) match what the game and rules crates produce.

use guoxiang_core::explain::REASON_CODES;
use guoxiang_game::{AbortReason, Color, CommandError, Outcome, Termination};
use guoxiang_protocol::{AbortReasonCode, ErrorCode, GameResult, PROTOCOL_ERROR_CODES, ReasonCode, TerminationCode};
use serde::Serialize;

fn wire<T: Serialize>(t: T) -> String {
    serde_json::to_string(&t).unwrap().trim_matches('"').to_owned()
}

#[test]
fn reason_codes() {
    let ours: Vec<&str> = ReasonCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ours, REASON_CODES);
    for c in ReasonCode::ALL {
        assert_eq!(wire(c), c.as_str());
        assert_eq!(ReasonCode::parse(c.as_str()), Some(c));
    }
}

#[test]
fn termination_codes_and_results() {
    let (w, b) = (Color::White, Color::Black);
    let all = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::DeadPosition,
        Termination::ThreefoldRepetition { claimant: w },
        Termination::FivefoldRepetition,
        Termination::FiftyMoves { claimant: b },
        Termination::SeventyFiveMoves,
        Termination::Resignation,
        Termination::Agreement,
        Termination::TimeForfeit,
        Termination::TimeForfeitDraw { flagged: w, bare_king: true },
        Termination::Abandoned,
        Termination::Adjudication,
        Termination::IllegalMove { offender: b },
        Termination::SealedMove { sealer: w },
        Termination::LateArrival { late: b },
        Termination::Promotion,
    ];
    let ours: Vec<&str> = TerminationCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ours, all.iter().map(Termination::code).collect::<Vec<_>>());
    for c in TerminationCode::ALL {
        assert_eq!(wire(c), c.as_str());
    }
    for (winner, result) in
        [(Some(w), GameResult::WhiteWins), (Some(b), GameResult::BlackWins), (None, GameResult::Draw)]
    {
        let o = Outcome { winner, termination: Termination::Agreement };
        assert_eq!(wire(result), o.result());
    }
}

#[test]
fn abort_reason_codes() {
    let ours: Vec<String> = AbortReasonCode::ALL.iter().map(|&c| wire(c)).collect();
    let theirs = [AbortReason::Player { by: Color::White }, AbortReason::FirstMoveTimeout { side: Color::Black }];
    assert_eq!(ours, theirs.iter().map(AbortReason::code).collect::<Vec<_>>());
}

#[test]
fn error_codes_are_the_protocol_and_game_codes() {
    let w = Color::White;
    let game = [
        CommandError::GameOver(Outcome { winner: Some(w), termination: Termination::Resignation }),
        CommandError::Aborted,
        CommandError::Adjourned,
        CommandError::NotAdjourned,
        CommandError::AlreadyAdjourned,
        CommandError::NotYourTurn { by: w },
        CommandError::BadMoveText { text: "x".into(), problem: "y".into() },
        CommandError::IllegalMove { mv: "e2e5".into(), fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into() },
        CommandError::DrawAlreadyOffered { by: w },
        CommandError::OfferWithMove { by: w },
        CommandError::ReofferNotAllowed { by: w },
        CommandError::NoDrawOffer { by: w },
        CommandError::CannotAbort,
        CommandError::TakebackInRated,
        CommandError::NothingToTakeBack { by: w },
        CommandError::TakebackAlreadyOffered { by: w },
        CommandError::NoTakebackOffer { by: w },
        CommandError::NotStarted,
        CommandError::OpponentConnected { by: w },
        CommandError::ClaimTooEarly { by: w, remaining_ms: 5 },
        CommandError::TouchMoveOff,
        CommandError::NothingToTouch { square: "e9".into() },
        CommandError::TouchMove { zh: "z".into(), en: "e".into() },
        CommandError::AdjournmentNotAllowed,
        CommandError::AdjournmentNotCalled,
        CommandError::AdjournmentAlreadyOffered { by: w },
        CommandError::SealedMovePending,
        CommandError::BadResumptionTime,
        CommandError::TournamentGame,
        CommandError::NoDispute,
        CommandError::ArbiterAlreadyCalled { by: w },
        CommandError::BadRuling { zh: "z".into(), en: "e".into() },
        CommandError::NoSealedMove,
        CommandError::Internal("z".into()),
    ];
    let mut expected: Vec<&str> = PROTOCOL_ERROR_CODES.to_vec();
    expected.extend(game.iter().map(CommandError::code));
    // The server's own refusals (a failed commit; accounts, lobby, challenges, rematches), documented in docs/api.md.
    expected.extend([
        "not_saved",
        "login_required",
        "rate_limited",
        "not_found",
        "not_ratable",
        "bad_time_control",
        "bad_fen",
        "bad_setup",
        "self_challenge",
        "challenge_closed",
        "not_for_you",
        "too_many_seeks",
        "not_yours",
        "own_seek",
        "unknown_pool",
        "not_over",
        "rematch_done",
        "no_rematch_offer",
        "rematch_offered",
        "too_many_challenges",
        "too_many_games",
        "not_arbiter",
    ]);
    let ours: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ours, expected);
    for c in ErrorCode::ALL {
        assert_eq!(wire(c), c.as_str());
        assert_eq!(ErrorCode::parse(c.as_str()), Some(c));
    }
    assert_eq!(ErrorCode::parse("nope"), None);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    for c in ErrorCode::ALL {
        assert!(doc.contains(&format!("`{}`", c.as_str())), "docs/api.md misses {}", c.as_str());
    }
}
