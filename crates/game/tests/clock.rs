//! Clocks in the game: untimed first moves, presses with lag credit, flags on Tick and on late moves (Article 6.9),
//! adjournment.

mod common;

use common::*;
use guoxiang_clock::{ClockState, Side};
use guoxiang_game::{Action, Clocks, Color, Command, CommandError, Event, MoveInput, Status, Termination};

/// A 1+0 game where both first moves were made at T0 + 1 s and T0 + 2 s: White's clock runs from T0 + 2 s.
fn started() -> (guoxiang_game::Game, u64) {
    let mut g = game("60+0", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    (g, T0 + 2_000)
}

#[test]
fn clocks_start_after_both_first_moves() {
    let mut g = game("60+0", true);
    let ev = mv(&mut g, T0 + 20_000, "e2e4");
    assert_eq!(g.clock().state(), ClockState::NotStarted);
    assert!(matches!(
        &ev[0].event,
        Event::MoveMade { clocks: Some(Clocks { white_ms: 60_000, black_ms: 60_000 }), .. }
    ));
    let ev = mv(&mut g, T0 + 45_000, "e7e5");
    assert!(matches!(
        &ev[0].event,
        Event::MoveMade { clocks: Some(Clocks { white_ms: 60_000, black_ms: 60_000 }), .. }
    ));
    assert_eq!(g.status(), Status::Started);
    assert_eq!(g.clock().state(), ClockState::Running(Side::White));
    assert_eq!(g.moves()[0].clock_ms, Some(60_000));
    assert_eq!(g.moves()[1].used_ms, 0, "first moves are not timed");
    // The lag reserve is not touched by untimed moves.
    assert_eq!(g.lag_reserve(Color::White).reserve_ms(), 1_200);
}

#[test]
fn a_press_charges_the_mover_and_credits_lag_from_the_reserve() {
    let (mut g, s) = started();
    let ev = g
        .apply(
            t(s + 10_000),
            Command::Player {
                by: Color::White,
                action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: false },
                lag_ms: 300,
            },
        )
        .unwrap();
    match &ev[0].event {
        Event::MoveMade { clocks, .. } => assert_eq!(*clocks, Some(Clocks { white_ms: 50_300, black_ms: 60_000 })),
        e => panic!("{e:?}"),
    }
    assert_eq!((g.moves()[2].clock_ms, g.moves()[2].used_ms), (Some(50_300), 9_700));
    // 1 200 − 300 + 400 gain.
    assert_eq!(g.lag_reserve(Color::White).reserve_ms(), 1_300);
    assert_eq!(g.last_move_at(Color::White), Some(t(s + 10_000)));
}

#[test]
fn tick_flags_only_once_the_lag_reserve_cannot_save_the_move() {
    let (mut g, s) = started();
    // White's 60 s are gone at s + 60 000, but up to 1 200 ms of lag could still be credited to a move in flight.
    assert_eq!(g.clock().flag_fall(t(s + 60_000)), Some(Side::White));
    assert!(g.apply(t(s + 60_000), Command::Tick).unwrap().is_empty());
    assert!(g.apply(t(s + 61_199), Command::Tick).unwrap().is_empty());
    let ev = g.apply(t(s + 61_200), Command::Tick).unwrap();
    assert_eq!(ended(&ev), Some(("0-1".into(), "time_forfeit".into(), Some(Color::Black))));
    match &ev[0].event {
        Event::GameEnded { clocks, message_en, .. } => {
            assert_eq!(*clocks, Some(Clocks { white_ms: 0, black_ms: 60_000 }));
            assert_eq!(message_en, "Black wins on time");
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_late_move_within_the_lag_credit_is_played() {
    let (mut g, s) = started();
    let ev = g
        .apply(
            t(s + 60_500),
            Command::Player {
                by: Color::White,
                action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: false },
                lag_ms: 800,
            },
        )
        .unwrap();
    assert_eq!(types(&ev), ["move_made"]);
    assert_eq!(g.moves()[2].clock_ms, Some(300));
}

#[test]
fn lag_credit_is_capped_by_the_reserve() {
    let (mut g, s) = started();
    // 5 s of claimed lag, only 1 200 ms in the reserve: used 59 800 ms of 60 000.
    g.apply(
        t(s + 61_000),
        Command::Player {
            by: Color::White,
            action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: false },
            lag_ms: 5_000,
        },
    )
    .unwrap();
    assert_eq!(g.moves()[2].clock_ms, Some(200));
    assert_eq!(g.lag_reserve(Color::White).reserve_ms(), 400);
}

#[test]
fn a_move_after_the_flag_fell_loses_instead_of_being_played() {
    let (mut g, s) = started();
    let ev = g
        .apply(
            t(s + 61_300),
            Command::Player {
                by: Color::White,
                action: Action::Move { mv: MoveInput::uci("g1f3"), offer_draw: false },
                lag_ms: 5_000,
            },
        )
        .unwrap();
    assert_eq!(types(&ev), ["game_ended"]);
    assert_eq!(ended(&ev), Some(("0-1".into(), "time_forfeit".into(), Some(Color::Black))));
    assert_eq!(g.moves().len(), 2);
}

#[test]
fn a_move_after_the_flag_without_lag_loses() {
    let (mut g, s) = started();
    let ev = g.apply(t(s + 60_000), mv_cmd(Color::White, "g1f3")).unwrap();
    assert_eq!(ended(&ev), Some(("0-1".into(), "time_forfeit".into(), Some(Color::Black))));
}

#[test]
fn other_commands_see_the_flag_first() {
    let (mut g, s) = started();
    // Black offers a draw after White's flag fell for good: the game ended on time before the offer.
    let ev = g.apply(t(s + 70_000), Command::by(Color::Black, Action::OfferDraw)).unwrap();
    assert_eq!(types(&ev), ["game_ended"]);
    assert_eq!(g.outcome().unwrap().termination, Termination::TimeForfeit);
}

#[test]
fn flag_against_a_bare_king_is_a_draw() {
    // Black has only the king: White's flag falling cannot lose (Article 6.9).
    let mut g = from_fen("60+0", "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1");
    line(&mut g, T0 + 1_000, "f1f2 e8d7");
    let ev = g.apply(t(T0 + 2_000 + 61_200), Command::Tick).unwrap();
    assert_eq!(ended(&ev), Some(("1/2-1/2".into(), "time_forfeit_draw".into(), None)));
    assert_eq!(
        g.outcome().unwrap().termination,
        Termination::TimeForfeitDraw { flagged: Color::White, bare_king: true }
    );
    match &ev[0].event {
        Event::GameEnded { message_en, .. } => {
            assert_eq!(message_en, "Draw: White ran out of time, but Black has only a king and cannot checkmate")
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn flag_of_the_side_with_mating_material_against_a_lone_king_plus_queen_loses() {
    // Black flags; White has a queen and can mate: a loss.
    let mut g = from_fen("60+0", "4k3/8/8/8/8/8/8/4KQ2 b - - 0 1");
    line(&mut g, T0 + 1_000, "e8d7 f1f2");
    let ev = g.apply(t(T0 + 2_000 + 61_200), Command::Tick).unwrap();
    assert_eq!(ended(&ev), Some(("1-0".into(), "time_forfeit".into(), Some(Color::White))));
}

#[test]
fn adjournment_stops_the_clocks_and_refuses_moves() {
    let (mut g, s) = started();
    let ev = g.apply(t(s + 10_000), Command::Adjourn).unwrap();
    assert_eq!(events(&ev), [Event::Adjourned { clocks: Some(Clocks { white_ms: 50_000, black_ms: 60_000 }) }]);
    assert_eq!(g.apply(t(s + 11_000), mv_cmd(Color::White, "g1f3")).unwrap_err(), CommandError::Adjourned);
    assert_eq!(g.apply(t(s + 11_000), Command::Adjourn).unwrap_err(), CommandError::AlreadyAdjourned);
    // A day later nothing has been charged and no flag falls.
    assert!(g.apply(t(s + 86_400_000), Command::Tick).unwrap().is_empty());
    let ev = g.apply(t(s + 86_400_000), Command::Resume).unwrap();
    assert_eq!(events(&ev), [Event::Resumed { clocks: Some(Clocks { white_ms: 50_000, black_ms: 60_000 }) }]);
    assert_eq!(g.apply(t(s + 86_400_000), Command::Resume).unwrap_err(), CommandError::NotAdjourned);
    mv(&mut g, s + 86_405_000, "g1f3");
    assert_eq!(g.moves()[2].clock_ms, Some(45_000));
}

#[test]
fn adjournment_pauses_the_first_move_timer() {
    let mut g = game("60+0", true);
    g.apply(t(T0 + 10_000), Command::Adjourn).unwrap();
    g.apply(t(T0 + 500_000), Command::Resume).unwrap();
    // 10 s were used before the adjournment: 20 s are left.
    assert_eq!(g.first_move_deadline(), Some(t(T0 + 520_000)));
    assert!(g.apply(t(T0 + 520_000), Command::Tick).unwrap().is_empty());
    assert_eq!(types(&g.apply(t(T0 + 520_001), Command::Tick).unwrap()), ["aborted"]);
}

#[test]
fn unlimited_games_never_flag() {
    let mut g = game("-", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    assert!(g.apply(t(T0 + 10_000_000_000), Command::Tick).unwrap().is_empty());
    let ev = mv(&mut g, T0 + 10_000_000_000, "g1f3");
    assert!(matches!(&ev[0].event, Event::MoveMade { clocks: None, .. }));
    assert_eq!(g.moves()[2].clock_ms, None);
}

#[test]
fn increments_are_added_after_the_press() {
    let mut g = game("180+2", true);
    line(&mut g, T0 + 1_000, "e2e4 e7e5 g1f3");
    assert_eq!(g.moves()[2].clock_ms, Some(180_000 - 1_000 + 2_000));
}

#[test]
fn next_deadline_tells_when_to_tick() {
    let mut g = game("60+0", true);
    assert_eq!(g.next_deadline(t(T0)), Some(t(T0 + 30_001)));
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let s = T0 + 2_000;
    // 60 s on White's clock plus the 1 200 ms lag reserve.
    let d = g.next_deadline(t(s + 10_000)).unwrap();
    assert_eq!(d, t(s + 61_200));
    assert!(g.apply(t(d.as_millis() - 1), Command::Tick).unwrap().is_empty());
    assert_eq!(types(&g.apply(d, Command::Tick).unwrap()), ["game_ended"]);
    assert_eq!(g.next_deadline(d), None);
    assert_eq!(game("-", true).next_deadline(t(T0)), Some(t(T0 + 86_400_001)));
}

#[test]
fn even_an_illegal_move_after_the_flag_fell_for_good_ends_the_game() {
    let (mut g, s) = started();
    let ev = g.apply(t(s + 61_200), mv_cmd(Color::White, "e4e5")).unwrap();
    assert_eq!(ended(&ev), Some(("0-1".into(), "time_forfeit".into(), Some(Color::Black))));
}

#[test]
fn presence_updates_also_see_the_flag() {
    let (mut g, s) = started();
    let ev = g.apply(t(s + 70_000), Command::Disconnected { who: Color::White, since: t(s + 69_000) }).unwrap();
    assert_eq!(types(&ev), ["game_ended"]);
    assert_eq!(g.disconnected_since(Color::White), Some(t(s + 69_000)));
    assert!(g.apply(t(s + 71_000), Command::Reconnected { who: Color::White }).unwrap().is_empty());
}

/// A game with no base time (`0+2`) used to be lost on time at White's second move: each side now starts with
/// the increment, at least 3 s (as Lichess), and gains it after each move.
#[test]
fn a_game_without_base_time_is_playable() {
    let mut g = game("0+2", false);
    line(&mut g, T0 + 1_000, "e2e4 e7e5");
    let start = T0 + 2_000;
    let ev = mv(&mut g, start + 2_500, "g1f3");
    assert!(
        matches!(&ev[0].event, Event::MoveMade { clocks: Some(Clocks { white_ms: 2_500, black_ms: 3_000 }), .. }),
        "{ev:?}"
    );
    let ev = mv(&mut g, start + 4_500, "b8c6");
    assert!(matches!(&ev[0].event, Event::MoveMade { clocks: Some(Clocks { black_ms: 3_000, .. }), .. }), "{ev:?}");
    assert_eq!(g.status(), Status::Started);
}
