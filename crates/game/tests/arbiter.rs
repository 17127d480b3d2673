//! The arbiter's acts, article by article (`docs/game.md`, "The arbiter"): 6.11 (pausing and restarting the game),
//! 6.10.2 and 12.9 (time added), 12.1–12.2 (a claim decided), 12.9 and adjudication (a result with its reason),
//! the adjournment's duties (13–14 of the older Laws: calling it, the resumption time, the envelope) — each
//! recorded with the arbiter's name in the events, the snapshot and the PGN.

mod common;

use common::*;
use guoxiang_game::{
    Action, ArbiterAct, ArbiterRef, Color, Command, CommandError, Event, Game, GameConfig, Rules, Status, Termination,
    Timestamp, VersionedEvent,
};

fn arb() -> ArbiterRef {
    ArbiterRef::new("admin1", "Wang Arbiter")
}

fn act(g: &mut Game, now: u64, a: ArbiterAct) -> Result<Vec<VersionedEvent>, CommandError> {
    g.apply(t(now), Command::Arbiter { arbiter: arb(), act: a })
}

/// The `arbiter_acted` event's (act, English message).
fn acted(events: &[VersionedEvent]) -> (String, String) {
    match &events[0].event {
        Event::ArbiterActed { act, message_en, arbiter, arbiter_id, .. } => {
            assert_eq!((arbiter.as_str(), arbiter_id.as_str()), ("Wang Arbiter", "admin1"));
            (act.clone(), message_en.clone())
        }
        e => panic!("{e:?}"),
    }
}

/// A classical game after 1. e4 e5 (the clocks started at T0 + 2 s, White to move).
fn started() -> Game {
    let mut g = game("5400+30", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g
}

/// 6.11.1 and 6.11.3: the arbiter pauses the game; no move while paused; restarted, nothing was charged meanwhile.
#[test]
fn article_6_11_pause_and_restart() {
    let mut g = started();
    let before = g.clocks(t(T0 + 12_000)).unwrap().white_ms;
    let ev = act(&mut g, T0 + 12_000, ArbiterAct::Pause).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "adjourned"]);
    assert!(acted(&ev).1.contains("Article 6.11.1"), "{:?}", acted(&ev));
    assert!(g.is_adjourned());
    assert_eq!(g.apply(t(T0 + 13_000), mv_cmd(Color::White, "g1f3")).unwrap_err().code(), "adjourned");
    assert_eq!(act(&mut g, T0 + 14_000, ArbiterAct::Pause).unwrap_err().code(), "already_adjourned");
    // An hour later the game restarts: White's clock stands where it stood.
    let ev = act(&mut g, T0 + 3_612_000, ArbiterAct::Resume).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "resumed"]);
    assert_eq!(g.clocks(t(T0 + 3_612_000)).unwrap().white_ms, before);
    assert_eq!(act(&mut g, T0 + 3_613_000, ArbiterAct::Resume).unwrap_err().code(), "not_adjourned");
    mv(&mut g, T0 + 3_615_000, "g1f3");
}

/// 6.10.2 and 12.9: the arbiter adds time (the times the arbiter judges right; more time for the opponent as a
/// penalty). No time to add without a clock, and nothing absurd.
#[test]
fn article_12_9_time_added() {
    let mut g = started();
    let ev = act(&mut g, T0 + 5_000, ArbiterAct::AddTime { color: Color::Black, ms: 120_000 }).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "clock_update"]);
    assert_eq!(acted(&ev).1, "The arbiter Wang Arbiter gave Black 2:00 more (Articles 6.10.2, 12.9)");
    assert_eq!(g.clocks(t(T0 + 5_000)).unwrap().black_ms, 5_400_000 + 120_000);
    let e = act(&mut g, T0 + 5_000, ArbiterAct::AddTime { color: Color::Black, ms: 0 }).unwrap_err();
    assert_eq!(e.code(), "bad_ruling");
    let mut untimed = game("-", false);
    line(&mut untimed, T0 + 1_000, "e2e4 e7e5");
    let e = act(&mut untimed, T0 + 5_000, ArbiterAct::AddTime { color: Color::White, ms: 60_000 }).unwrap_err();
    assert!(e.message(guoxiang_core::Lang::En).contains("no clock"), "{e}");
}

/// 12.1–12.2: a player calls the arbiter with a claim; it waits (one at a time) and the arbiter upholds or rejects
/// it with a ruling; with nothing pending there is nothing to decide.
#[test]
fn article_12_claims_are_decided() {
    let mut g = started();
    assert_eq!(
        act(&mut g, T0 + 4_000, ArbiterAct::Decide { uphold: true, ruling: "x".into() }).unwrap_err().code(),
        "no_dispute"
    );
    let claim = Action::CallArbiter { reason: "my opponent's phone rang".into() };
    let ev = g.apply(t(T0 + 5_000), Command::by(Color::Black, claim.clone())).unwrap();
    assert_eq!(types(&ev), ["arbiter_called"]);
    assert_eq!(g.dispute().unwrap().by, Color::Black);
    assert_eq!(g.apply(t(T0 + 5_500), Command::by(Color::White, claim)).unwrap_err().code(), "arbiter_already_called");
    let empty = Action::CallArbiter { reason: "  ".into() };
    assert_eq!(g.apply(t(T0 + 5_500), Command::by(Color::White, empty)).unwrap_err().code(), "bad_ruling");
    let ruling = ArbiterAct::Decide { uphold: true, ruling: "White is warned (12.9.1)".into() };
    let ev = act(&mut g, T0 + 6_000, ruling).unwrap();
    assert_eq!(
        acted(&ev),
        (
            "decide".to_owned(),
            "The arbiter Wang Arbiter upheld Black's claim (my opponent's phone rang): White is warned (12.9.1)"
                .to_owned()
        )
    );
    assert!(g.dispute().is_none());
    // The game goes on.
    mv(&mut g, T0 + 7_000, "g1f3");
}

/// 12.9 (a game declared lost) and adjudication: a result with the reason, in the event, the snapshot's record and
/// the PGN (`Termination "Rules infraction"` for a breach, `"Adjudication"` otherwise).
#[test]
fn article_12_9_results_with_a_reason() {
    let mut g = started();
    let bad = ArbiterAct::SetResult { result: "2-0".into(), reason: "x".into(), infraction: false };
    assert_eq!(act(&mut g, T0 + 4_000, bad).unwrap_err().code(), "bad_ruling");
    let no_reason = ArbiterAct::SetResult { result: "1-0".into(), reason: "".into(), infraction: false };
    assert_eq!(act(&mut g, T0 + 4_000, no_reason).unwrap_err().code(), "bad_ruling");
    let loss = ArbiterAct::SetResult {
        result: "1-0".into(),
        reason: "Article 11.3.2: Black had a phone".into(),
        infraction: true,
    };
    let ev = act(&mut g, T0 + 5_000, loss).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "game_ended"]);
    assert_eq!(ended(&ev), Some(("1-0".into(), "adjudication".into(), Some(Color::White))));
    match &ev[1].event {
        Event::GameEnded { message_en, message_zh, .. } => {
            assert_eq!(
                message_en,
                "White wins by the arbiter Wang Arbiter's decision: Article 11.3.2: Black had a phone"
            );
            assert!(message_zh.starts_with("裁判Wang Arbiter判白方胜"), "{message_zh}");
        }
        e => panic!("{e:?}"),
    }
    // (The writer wraps lines at 80 characters.)
    let pgn = g.to_pgn(&Default::default()).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(pgn.contains("[Termination \"Rules infraction\"]"), "{pgn}");
    assert!(pgn.contains("[%arbiter Wang_Arbiter set_result]"), "{pgn}");
    assert!(pgn.contains("1-0"), "{pgn}");
    // The record survives a restore.
    let back = Game::restore(g.snapshot(t(T0 + 6_000)), t(T0 + 6_000)).unwrap();
    assert_eq!(back.arbiter_log(), g.arbiter_log());
    // A finished game takes no more acts.
    assert_eq!(act(&mut g, T0 + 7_000, ArbiterAct::Pause).unwrap_err().code(), "game_over");

    // A draw by adjudication, for instance when both came late to a resumption (10.17 of the older Laws).
    let mut g = started();
    let draw = ArbiterAct::SetResult { result: "1/2-1/2".into(), reason: "adjudicated".into(), infraction: false };
    act(&mut g, T0 + 5_000, draw).unwrap();
    assert_eq!(g.outcome().map(|o| (o.winner, o.termination)), Some((None, Termination::Adjudication)));
    assert!(g.to_pgn(&Default::default()).contains("[Termination \"Adjudication\"]"));
}

/// The adjournment's duties (13–14 of the older Laws; 16.2 there: the arbiter keeps the envelope): calling it
/// whatever the rule set, setting the resumption time, opening the envelope — which starts the session and plays
/// the sealed move.
#[test]
fn articles_13_14_the_arbiter_and_the_sealed_move() {
    let mut g = started();
    assert_eq!(g.rules(), Rules::ONLINE);
    assert_eq!(act(&mut g, T0 + 4_000, ArbiterAct::OpenSealedMove).unwrap_err().code(), "no_sealed_move");
    let ev = act(&mut g, T0 + 4_000, ArbiterAct::CallAdjournment).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "adjournment_called"]);
    g.apply(t(T0 + 6_000), Command::by(Color::White, Action::Seal { mv: "Nf3".into() })).unwrap();
    let ev = act(&mut g, T0 + 7_000, ArbiterAct::ScheduleResumption { at_ms: T0 + 86_400_000 }).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "resumption_scheduled"]);
    // The arbiter opens the envelope before the appointed time: the session starts now.
    let ev = act(&mut g, T0 + 60_000, ArbiterAct::OpenSealedMove).unwrap();
    assert_eq!(types(&ev), ["arbiter_acted", "resumed", "sealed_move_opened", "move_made"]);
    assert_eq!(g.moves().last().unwrap().san.as_str(), "Nf3");
    assert!(!g.is_adjourned());
    // The record is before the sealed move in the PGN.
    let pgn = g.to_pgn(&Default::default());
    let at = pgn.find("open_sealed_move").unwrap();
    assert!(at < pgn.find("Nf3").unwrap(), "{pgn}");
    // White's time stopped at the seal: 4 s of thinking since the clocks started at T0 + 2 s.
    assert_eq!(g.moves().last().unwrap().clock_ms, Some(5_400_000 - 4_000 + 30_000));
    mv(&mut g, T0 + 61_000, "b8c6");
}

/// Refused acts change nothing (same version, no events).
#[test]
fn refused_acts_change_nothing() {
    let mut g = started();
    let v = g.version();
    let snap = g.snapshot(t(T0 + 5_000));
    for a in [
        ArbiterAct::Resume,
        ArbiterAct::OpenSealedMove,
        ArbiterAct::Decide { uphold: false, ruling: "r".into() },
        ArbiterAct::SetResult { result: "1-0".into(), reason: "x".repeat(301), infraction: false },
    ] {
        assert!(act(&mut g, T0 + 5_000, a).is_err());
    }
    assert_eq!(g.version(), v);
    assert_eq!(g.snapshot(t(T0 + 5_000)), snap);
    let _ = (GameConfig::default(), Status::Started, Timestamp(0));
}

/// A result the arbiter sets before both players have moved (a forfeit, not a game played) leaves the game
/// unrated; once both have moved, a rated game stays rated. The snapshot keeps it.
#[test]
fn a_result_set_before_both_players_moved_is_not_rated() {
    let set = |r: &str| ArbiterAct::SetResult { result: r.into(), reason: "did not come".into(), infraction: false };
    for before in ["", "e2e4"] {
        let mut g = game("600+0", true);
        line(&mut g, T0 + 1_000, before);
        act(&mut g, T0 + 5_000, set("1-0")).unwrap();
        assert!(g.is_over());
        assert!(!g.rated(), "{before:?}: a result without both players' moves is not rated");
        assert!(!g.snapshot(t(T0 + 5_000)).rated, "{before:?}");
    }
    let mut g = game("600+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    act(&mut g, T0 + 5_000, set("0-1")).unwrap();
    assert!(g.rated(), "both players moved: rated as before");
    // A refused act does not change it either.
    let mut g = game("600+0", true);
    assert!(act(&mut g, T0 + 5_000, set("2-0")).is_err());
    assert!(g.rated());
}
