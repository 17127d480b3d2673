//! Versions and the event log, snapshots and restore, PGN export.

mod common;

use common::*;
use guoxiang_game::{
    Action, Clocks, Color, Command, Event, Game, GameConfig, MoveInput, PgnTags, Snapshot, Source, StateRecord, Status,
    Variant, format_clk,
};
use guoxiang_pgn::{GameResult, Reader};

#[test]
fn versions_go_up_by_one_per_event() {
    let mut g = game("180+2", true);
    assert_eq!(g.version(), 0);
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
    assert_eq!(ev.iter().map(|e| e.version).collect::<Vec<_>>(), [1, 2]);
    let ev = mv(&mut g, T0 + 2_000, "e7e5");
    assert_eq!(ev.iter().map(|e| e.version).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(g.version(), 4);
}

#[test]
fn events_since_returns_what_a_client_missed() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3 b8c6");
    let missed = g.events_since(2).unwrap();
    assert_eq!(missed.iter().map(|e| e.version).collect::<Vec<_>>(), [3, 4]);
    assert!(matches!(&missed[0].event, Event::MoveMade { san, .. } if san == "Nf3"));
    assert_eq!(g.events_since(4), Some(vec![]));
    assert_eq!(g.events_since(0).unwrap().len(), 4);
    assert_eq!(g.events_since(5), None, "a client ahead of the game must resync");
}

#[test]
fn events_since_asks_for_a_resync_when_too_old() {
    let mut setup = setup("180+2", true, Variant::Standard);
    setup.config = GameConfig { event_log_len: 3, ..GameConfig::default() };
    let mut g = Game::new(setup, t(T0)).unwrap();
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3 b8c6 f1c4");
    // Kept: versions 3, 4, 5.
    assert_eq!(g.events_since(1), None);
    assert_eq!(g.events_since(2).unwrap().iter().map(|e| e.version).collect::<Vec<_>>(), [3, 4, 5]);
    assert_eq!(g.events_since(4).unwrap().len(), 1);
}

#[test]
fn events_serialize_with_a_type_and_version() {
    let mut g = game("180+2", true);
    let ev = mv(&mut g, T0 + 1_000, "e2e4");
    let json = serde_json::to_value(&ev[0]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "version": 1, "type": "move_made", "by": "white", "uci": "e2e4", "san": "e4",
            "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "ply": 1,
            "clocks": { "white_ms": 180_000, "black_ms": 180_000 }
        })
    );
    let back: guoxiang_game::VersionedEvent = serde_json::from_value(json).unwrap();
    assert_eq!(back, ev[0]);
    let ev = g.apply(t(T0 + 2_000), Command::by(Color::Black, Action::Resign)).unwrap();
    let json = serde_json::to_value(&ev[0]).unwrap();
    assert_eq!(json["type"], "game_ended");
    assert_eq!(json["result"], "1-0");
    assert_eq!(json["termination"], "resignation");
    assert_eq!(json["winner"], "white");
    assert_eq!(json["message_zh"], "黑方认输，白胜");
}

fn mid_game() -> (Game, u64) {
    let mut g = game("300+3", true);
    let last = line(&mut g, T0 + 1_000, "e2e4 c7c5 g1f3 d7d6 d2d4");
    // Black has been thinking for 4 s when the snapshot is taken; White's connection dropped.
    g.apply(t(last + 500), Command::Disconnected { who: Color::White, since: t(last + 400) }).unwrap();
    (g, last + 4_000)
}

#[test]
fn snapshot_restore_round_trip_keeps_position_and_clocks() {
    let (g, now) = mid_game();
    let snap = g.snapshot(t(now));
    let json = serde_json::to_string(&snap).unwrap();
    let snap: Snapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(snap, g.snapshot(t(now)));
    // The server comes back on a new time scale, 10 minutes later in real time: new timestamps start at 5 000.
    let later = 5_000;
    let r = Game::restore(snap.clone(), t(later)).unwrap();
    assert_eq!(r.position().fen(), g.position().fen());
    assert_eq!(
        r.moves().iter().map(|m| &m.san).collect::<Vec<_>>(),
        g.moves().iter().map(|m| &m.san).collect::<Vec<_>>()
    );
    assert_eq!(r.version(), g.version());
    assert_eq!(r.status(), Status::Started);
    assert_eq!(r.turn(), Color::Black);
    // Black's clock stands where it stood when the snapshot was taken: the downtime is not charged.
    assert_eq!(r.clocks(t(later)), g.clocks(t(now)));
    assert_eq!(
        r.clocks(t(later)),
        Some(Clocks { white_ms: 300_000 - 2_000 + 6_000, black_ms: 300_000 - 1_000 + 3_000 - 4_000 })
    );
    // And it runs on from there.
    assert_eq!(r.clocks(t(later + 1_000)).unwrap().black_ms, 297_000);
    // Timestamps moved to the new scale, durations kept: White has been gone 3.6 s.
    assert_eq!(r.disconnected_since(Color::White), Some(t(later - 3_600)));
    // Clients at the current version are up to date; older ones resync.
    assert_eq!(r.events_since(r.version()), Some(vec![]));
    assert_eq!(r.events_since(r.version() - 1), None);
    assert_eq!(r.snapshot(t(later)).clocks, snap.clocks);
}

#[test]
fn the_stored_state_has_no_moves_and_restores_with_them() {
    let (g, now) = mid_game();
    let record = g.state_record(t(now));
    assert!(record.state.moves.is_empty(), "the moves are stored as rows of their own");
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"format\":1"), "{json}");
    let back: StateRecord = serde_json::from_str(&json).unwrap();
    let r = Game::restore_record(back, g.moves().to_vec(), t(now)).unwrap();
    assert_eq!(r.position().fen(), g.position().fen());
    assert_eq!(r.moves(), g.moves());
    assert_eq!((r.version(), r.status()), (g.version(), g.status()));
    assert_eq!(r.clocks(t(now)), g.clocks(t(now)));
    // A row written before the format number (a snapshot with its moves blanked) reads as format 1.
    let mut old = serde_json::to_value(g.snapshot(t(now))).unwrap();
    old["moves"] = serde_json::json!([]);
    let old: StateRecord = serde_json::from_value(old).unwrap();
    assert_eq!(old.format, 1);
    assert_eq!(Game::restore_record(old, g.moves().to_vec(), t(now)).unwrap().position().fen(), g.position().fen());
    // A format this version does not know is refused with a clear error, and so are moves that do not fit.
    let mut future = g.state_record(t(now));
    future.format = 2;
    let e = Game::restore_record(future, g.moves().to_vec(), t(now)).unwrap_err();
    assert!(e.to_string().contains("format 2"), "{e}");
    assert!(Game::restore_record(g.state_record(t(now)), Vec::new(), t(now)).is_err());
}

#[test]
fn a_games_source_is_kept_and_old_states_read_as_friend() {
    let mut s = setup("300+0", false, Variant::Standard);
    s.source = Source::Lobby;
    let g = Game::new(s, t(0)).unwrap();
    assert_eq!(g.source(), Source::Lobby);
    let json = serde_json::to_value(g.state_record(t(0))).unwrap();
    assert_eq!(json["source"], "lobby");
    let back: StateRecord = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(Game::restore_record(back, Vec::new(), t(0)).unwrap().source(), Source::Lobby);
    // A state stored before the source was kept reads as a friend's game.
    let mut old = json;
    old.as_object_mut().unwrap().remove("source");
    let old: StateRecord = serde_json::from_value(old).unwrap();
    assert_eq!(Game::restore_record(old, Vec::new(), t(0)).unwrap().source(), Source::Friend);
    let names: Vec<&str> =
        [Source::Friend, Source::Position, Source::Lobby, Source::Pool, Source::Ai].map(Source::as_str).to_vec();
    assert_eq!(names, ["friend", "position", "lobby", "pool", "ai"]);
}

#[test]
fn a_restored_game_plays_on() {
    let (g, now) = mid_game();
    let mut r = Game::restore(g.snapshot(t(now)), t(now + 3_600_000)).unwrap();
    let ev = mv(&mut r, now + 3_600_000 + 1_000, "c5d4");
    assert_eq!(ev[0].version, g.version() + 1);
    assert_eq!(r.moves().last().unwrap().clock_ms, Some(300_000 - 1_000 + 3_000 - 5_000 + 3_000));
    assert_eq!(r.events_since(g.version()).unwrap().len(), 1);
}

#[test]
fn snapshot_keeps_offers_and_adjournment() {
    let mut g = game("300+3", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 3_000), Command::by(Color::Black, Action::OfferDraw)).unwrap();
    g.apply(t(T0 + 3_500), Command::by(Color::Black, Action::TakebackOffer)).unwrap();
    g.apply(t(T0 + 4_000), Command::Adjourn).unwrap();
    let snap = g.snapshot(t(T0 + 5_000));
    let mut r = Game::restore(serde_json::from_str(&serde_json::to_string(&snap).unwrap()).unwrap(), t(77)).unwrap();
    assert_eq!(r.draw_offer(), Some(Color::Black));
    assert_eq!(r.takeback_offer(), Some(Color::Black));
    assert!(r.is_adjourned());
    assert_eq!(r.clocks(t(1_000_000)).unwrap().white_ms, 298_000);
    r.apply(t(2_000_000), Command::Resume).unwrap();
    assert_eq!(r.clocks(t(2_001_000)).unwrap().white_ms, 297_000);
    let ev = r.apply(t(2_001_000), Command::by(Color::White, Action::AcceptDraw)).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "agreement".into(), None)));
}

#[test]
fn finished_games_restore_finished() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "f2f3 e7e5 g2g4 d8h4");
    let snap = g.snapshot(t(T0 + 9_000));
    let json = serde_json::to_value(&snap).unwrap();
    assert_eq!(json["status"], "finished");
    assert_eq!(json["outcome"]["termination"], "checkmate");
    let r = Game::restore(serde_json::from_value(json).unwrap(), t(1)).unwrap();
    assert_eq!(r.outcome(), g.outcome());
}

#[test]
fn a_tampered_snapshot_is_refused() {
    let (g, now) = mid_game();
    let mut snap = g.snapshot(t(now));
    snap.moves[2].uci = guoxiang_game::move_text("e2e4");
    assert!(matches!(Game::restore(snap, t(0)), Err(guoxiang_game::SetupError::BadSnapshot(_))));
}

#[test]
fn clk_format() {
    assert_eq!(format_clk(180_000), "0:03:00");
    assert_eq!(format_clk(3_725_999), "1:02:05");
    assert_eq!(format_clk(999), "0:00:00");
}

#[test]
fn pgn_export_reads_back_with_clock_comments() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3 b8c6 f1b5");
    g.apply(t(T0 + 20_000), Command::by(Color::Black, Action::Resign)).unwrap();
    let tags = PgnTags {
        site: Some("https://guoxiang.example/g1".into()),
        date: Some("2026.11.30".into()),
        ..PgnTags::default()
    };
    let pgn = g.to_pgn(&tags);
    let read = Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap();
    assert_eq!(read.tag("Event"), Some("Rated blitz game"));
    assert_eq!(read.tag("Site"), Some("https://guoxiang.example/g1"));
    assert_eq!(read.tag("Date"), Some("2026.11.30"));
    assert_eq!(read.tag("White"), Some("李白"));
    assert_eq!(read.tag("Black"), Some("Du Fu"));
    assert_eq!(read.tag("Result"), Some("1-0"));
    assert_eq!(read.tag("GameId"), Some("g1"));
    assert_eq!(read.tag("TimeControl"), Some("180+2"));
    assert_eq!(read.tag("Termination"), Some("Normal"));
    assert_eq!(read.tag("FEN"), None);
    assert_eq!(read.result, Some(GameResult::WhiteWins));
    assert_eq!(read.mainline().collect::<Vec<_>>(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    let clk: Vec<&str> = read.moves.nodes.iter().map(|n| n.comments_after[0].trim()).collect();
    // First moves untimed; then 1 s per move and +2 s.
    assert_eq!(clk, ["[%clk 0:03:00]", "[%clk 0:03:00]", "[%clk 0:03:01]", "[%clk 0:03:01]", "[%clk 0:03:02]"]);
    assert!(pgn.contains("1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Nf3"), "{pgn}");
    // The SAN replays with the rules.
    let mut pos = guoxiang_core::Position::new();
    for san in read.mainline() {
        pos.play_san(san).unwrap();
    }
    assert_eq!(pos.fen(), g.position().fen());
}

#[test]
fn pgn_export_of_a_time_forfeit_and_a_chess960_game() {
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let mut g = Game::new(setup("60+0", false, Variant::Chess960 { fen: fen.into() }), t(T0)).unwrap();
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    g.apply(t(T0 + 2_000 + 70_000), Command::Tick).unwrap();
    let pgn = g.to_pgn(&PgnTags::default());
    let read = Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap();
    assert_eq!(read.tag("Event"), Some("Casual bullet game"));
    assert_eq!(read.tag("Result"), Some("0-1"));
    assert_eq!(read.tag("Termination"), Some("Time forfeit"));
    assert_eq!(read.tag("Variant"), Some("Chess960"));
    assert_eq!(read.tag("SetUp"), Some("1"));
    // X-FEN castling (KQkq names the outermost rooks, here the h- and f-file rooks).
    assert_eq!(read.tag("FEN"), Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"));
    assert_eq!(read.mainline().collect::<Vec<_>>(), ["e4", "e5"]);
}

#[test]
fn pgn_export_of_an_unfinished_game() {
    let mut g = game("-", false);
    mv(&mut g, T0 + 1_000, "d2d4");
    let pgn = g.to_pgn(&PgnTags::default());
    assert!(pgn.contains("[Result \"*\"]"));
    assert!(pgn.contains("[Termination \"Unterminated\"]"));
    assert!(pgn.contains("[TimeControl \"-\"]"));
    assert!(!pgn.contains("%clk"), "no clock comments without a time limit");
}

#[test]
fn games_can_move_between_threads() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<Game>();
    assert_send_sync::<Snapshot>();
    assert_send_sync::<guoxiang_game::VersionedEvent>();
    assert_send_sync::<guoxiang_game::CommandError>();
}

#[test]
fn move_texts_are_inline_and_read_and_written_as_strings() {
    assert_eq!(guoxiang_game::move_text("Qh4xe1+").as_str(), "Qh4xe1+");
    assert_eq!(guoxiang_game::move_text("马f3马f3马").as_str(), "马f3马", "cut at a character boundary");
    let json = r#"{"by":"white","uci":"e7e8q","san":"e8=Q+","at":5,"clock_ms":null,"used_ms":0}"#;
    let r: guoxiang_game::MoveRecord = serde_json::from_str(json).unwrap();
    assert_eq!((r.uci.as_str(), r.san.as_str()), ("e7e8q", "e8=Q+"));
    assert_eq!(serde_json::to_string(&r).unwrap(), json);
}

#[test]
fn pgn_export_keeps_free_text_in_its_tag() {
    let evil = "Open\"]\n[Result \"1-0\"]\n[Black \"x";
    let mut s = setup("180+2", false, Variant::Standard);
    s.white = guoxiang_game::PlayerRef::human("u1", format!("李白{evil}"));
    let mut g = Game::new(s, t(T0)).unwrap();
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let tags = PgnTags {
        event: Some(evil.into()),
        round: Some("1\r\n[Round \"2".into()),
        extra: vec![("Opening".into(), evil.into())],
        ..PgnTags::default()
    };
    let pgn = g.to_pgn(&tags);
    let read = Reader::new(pgn.as_bytes()).read_owned_game().unwrap().unwrap();
    let names: Vec<&str> = read.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, g.pgn_tags(&tags).iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), "no tag added:\n{pgn}");
    let one_line = evil.replace('\n', " ");
    assert_eq!(read.tag("Event"), Some(one_line.as_str()));
    assert_eq!(read.tag("White"), Some(format!("李白{one_line}").as_str()));
    assert_eq!(read.tag("Opening"), Some(one_line.as_str()));
    assert_eq!(read.tag("Round"), Some("1  [Round \"2"));
    assert_eq!((read.tag("Black"), read.tag("Result")), (Some("Du Fu"), Some("*")));
    assert_eq!(read.mainline().collect::<Vec<_>>(), ["e4", "e5"]);
}
