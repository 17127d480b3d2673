//! The protocol's mirrors of `guoxiang-game`'s types put the same JSON on the wire, and real games convert.

mod common;

use guoxiang_game::{
    Action, ClaimKind, Color, Command, Game, GameConfig, GameSetup, MoveInput, PlayerRef, TimeControl, Timestamp,
    Variant, VersionedEvent,
};
use guoxiang_protocol::{GameEvent, GameStatus, ServerMessage, VersionedGameEvent};

#[test]
fn every_event_serializes_like_the_game_crate() {
    let ours = common::events();
    let theirs = common::game_events();
    assert_eq!(ours.len(), theirs.len());
    for (version, (o, t)) in (1..).zip(ours.into_iter().zip(theirs)) {
        let game_json = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::to_string(&o).unwrap(), game_json);
        // The protocol's type reads the game crate's JSON back to the same value.
        assert_eq!(serde_json::from_str::<GameEvent>(&game_json).unwrap(), o);
        // And versioned, with the flattened version.
        let ve = VersionedEvent { version, event: t };
        let game_json = serde_json::to_string(&ve).unwrap();
        let mirrored = VersionedGameEvent::from(ve.clone());
        assert_eq!(serde_json::to_string(&mirrored).unwrap(), game_json);
        // The game crate reads what we write.
        assert_eq!(serde_json::from_str::<VersionedEvent>(&game_json).unwrap(), ve);
    }
}

fn new_game(rated: bool) -> Game {
    let tc = TimeControl::from_pgn("180+2").unwrap();
    let setup = GameSetup {
        id: "abcd1234".into(),
        white: PlayerRef::human("u1", "Alice"),
        black: PlayerRef::human("u2", "Bob"),
        rated,
        config: GameConfig { event_log_len: 3, ..GameConfig::for_time_control(&tc) },
        time_control: tc,
        variant: Variant::Standard,
        source: guoxiang_game::Source::Friend,
    };
    Game::new(setup, Timestamp(1_000)).unwrap()
}

fn play(g: &mut Game, at: u64, by: Color, uci: &str) -> Vec<VersionedEvent> {
    g.apply(
        Timestamp(at),
        Command::Player { by, action: Action::Move { mv: MoveInput::uci(uci), offer_draw: false }, lag_ms: 0 },
    )
    .unwrap()
}

#[test]
fn real_game_events_and_snapshot() {
    let mut g = new_game(true);
    let ev = play(&mut g, 2_000, Color::White, "e2e4");
    let json = ServerMessage::game_events("abcd1234", ev).to_json();
    assert!(json.starts_with(r#"{"t":"game_events","game_id":"abcd1234","events":[{"version":1,"type":"move_made""#));
    play(&mut g, 3_000, Color::Black, "e7e5");
    g.apply(Timestamp(4_000), Command::by(Color::Black, Action::OfferDraw)).unwrap();
    let ServerMessage::GameSnapshot { game_id, snapshot } = ServerMessage::game_snapshot(&g.snapshot(Timestamp(5_000)))
    else {
        panic!()
    };
    assert_eq!(game_id, "abcd1234");
    assert_eq!(snapshot.version, 3);
    assert_eq!(snapshot.time_control, "180+2");
    assert_eq!(snapshot.moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["e4", "e5"]);
    assert_eq!(snapshot.turn, guoxiang_protocol::Color::White);
    assert_eq!(snapshot.clock_running, Some(guoxiang_protocol::Color::White));
    assert_eq!(snapshot.clocks.unwrap().white_ms, 180_000 - 2_000);
    assert_eq!(snapshot.status, GameStatus::Started);
    assert_eq!(snapshot.draw_offer, Some(guoxiang_protocol::Color::Black));
    assert_eq!(snapshot.disconnected, [false, false]);

    g.apply(Timestamp(6_000), Command::by(Color::White, Action::Resign)).unwrap();
    let s: guoxiang_protocol::GameSnapshot = (&g.snapshot(Timestamp(7_000))).into();
    let GameStatus::Finished { result, termination, winner, .. } = &s.status else { panic!("{:?}", s.status) };
    assert_eq!((result.as_str(), termination.as_str()), ("0-1", "resignation"));
    assert_eq!(*winner, Some(guoxiang_protocol::Color::Black));
    assert_eq!(s.clock_running, None);
}

#[test]
fn aborted_status() {
    let mut g = new_game(false);
    g.apply(Timestamp(2_000), Command::by(Color::Black, Action::Abort)).unwrap();
    let s: guoxiang_protocol::GameSnapshot = (&g.snapshot(Timestamp(2_000))).into();
    assert_eq!(s.status, GameStatus::Aborted { reason: "player".into(), by: guoxiang_protocol::Color::Black });
    assert_eq!(serde_json::to_string(&s.status).unwrap(), r#"{"status":"aborted","reason":"player","by":"black"}"#);
}

#[test]
fn resync_sends_missed_events_or_a_snapshot() {
    let mut g = new_game(false);
    for (i, (by, uci)) in
        [(Color::White, "e2e4"), (Color::Black, "e7e5"), (Color::White, "g1f3"), (Color::Black, "b8c6")]
            .into_iter()
            .enumerate()
    {
        play(&mut g, 2_000 + 1_000 * i as u64, by, uci);
    }
    // The log keeps 3 events: a client at version 1 still gets events 2..=4, one at 0 needs the snapshot.
    let snap = || g.snapshot(Timestamp(9_000));
    let ServerMessage::GameEvents { events, .. } = ServerMessage::resync("abcd1234", g.events_since(1), snap) else {
        panic!()
    };
    assert_eq!(events.iter().map(|e| e.version).collect::<Vec<_>>(), [2, 3, 4]);
    let up_to_date = ServerMessage::resync("abcd1234", g.events_since(4), snap);
    assert_eq!(up_to_date.to_json(), r#"{"t":"game_events","game_id":"abcd1234","events":[]}"#);
    let ServerMessage::GameSnapshot { snapshot, .. } = ServerMessage::resync("abcd1234", g.events_since(0), snap)
    else {
        panic!()
    };
    assert_eq!(snapshot.version, 4);
    assert_eq!(snapshot.moves.len(), 4);
}

#[test]
fn command_errors_become_error_answers() {
    let mut g = new_game(true);
    let e = g.apply(Timestamp(2_000), Command::by(Color::White, Action::Resign)).and_then(|_| {
        g.apply(
            Timestamp(3_000),
            Command::by(Color::Black, Action::ClaimDraw { kind: ClaimKind::FiftyMoves, intended: None }),
        )
    });
    let e = e.unwrap_err();
    let ServerMessage::Error { id, code, message_zh, message_en } = ServerMessage::command_error(7, &e) else {
        panic!()
    };
    assert_eq!((id, code.as_str()), (Some(7), "game_over"));
    assert_eq!(message_zh, e.text().zh);
    assert_eq!(message_en, e.text().en);
}

#[test]
fn enum_conversions() {
    use guoxiang_protocol as p;
    for c in [Color::White, Color::Black] {
        assert_eq!(Color::from(p::Color::from(c)), c);
    }
    for k in [ClaimKind::ThreefoldRepetition, ClaimKind::FiftyMoves] {
        assert_eq!(ClaimKind::from(p::ClaimKind::from(k)), k);
        let ours = serde_json::to_string(&p::ClaimKind::from(k)).unwrap();
        assert_eq!(
            ours.trim_matches('"'),
            if k == ClaimKind::FiftyMoves { "fifty_moves" } else { "threefold_repetition" }
        );
    }
    assert_eq!(guoxiang_core::Lang::from(p::Lang::En), guoxiang_core::Lang::En);
    assert_eq!(guoxiang_core::Role::from(p::PromotionRole::Knight), guoxiang_core::Role::Knight);
}

#[test]
fn snapshot_example_of_the_docs() {
    let mut g = new_game(true);
    play(&mut g, 2_000, Color::White, "e2e4");
    play(&mut g, 3_000, Color::Black, "e7e5");
    g.apply(Timestamp(4_000), Command::by(Color::Black, Action::OfferDraw)).unwrap();
    let json = ServerMessage::game_snapshot(&g.snapshot(Timestamp(5_000))).to_json();
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    assert!(doc.contains(&json), "docs/api.md should show\n{json}");
}
