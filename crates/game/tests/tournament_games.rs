//! A tournament's game (`Source::Tournament`): the pairings decide who plays whom, so there is no rematch, and a
//! move made stands, so there is no takeback — casual tournament or rated.

mod common;

use common::*;
use guoxiang_game::{Action, Color, Command, CommandError, Game, Source, Variant};

fn tournament_game(rated: bool) -> Game {
    let mut s = setup("600+5", rated, Variant::Standard);
    s.source = Source::Tournament;
    Game::new(s, t(T0)).unwrap()
}

#[test]
fn no_takeback_in_a_casual_tournament_game() {
    let mut g = tournament_game(false);
    g.apply(t(T0 + 1_000), mv_cmd(Color::White, "e2e4")).unwrap();
    let version = g.version();
    let e = g.apply(t(T0 + 2_000), Command::by(Color::White, Action::TakebackOffer)).unwrap_err();
    assert_eq!(e, CommandError::TournamentGame);
    assert_eq!(e.code(), "tournament_game");
    assert_eq!(g.version(), version, "a refused command changes nothing");
    // The same in a casual game that is not a tournament's: the takeback is offered.
    let mut casual = game("600+5", false);
    casual.apply(t(T0 + 1_000), mv_cmd(Color::White, "e2e4")).unwrap();
    casual.apply(t(T0 + 2_000), Command::by(Color::White, Action::TakebackOffer)).unwrap();
}

#[test]
fn no_abort_of_a_tournament_game_by_a_player() {
    let mut g = tournament_game(false);
    let e = g.apply(t(T0 + 1_000), Command::by(Color::White, Action::Abort)).unwrap_err();
    assert_eq!(e, CommandError::TournamentGame);
    assert!(!g.is_over());
}

#[test]
fn no_rematch_after_a_tournament_game() {
    let mut g = tournament_game(true);
    g.apply(t(T0 + 1_000), mv_cmd(Color::White, "e2e4")).unwrap();
    g.apply(t(T0 + 2_000), mv_cmd(Color::Black, "e7e5")).unwrap();
    g.apply(t(T0 + 3_000), Command::by(Color::Black, Action::Resign)).unwrap();
    assert!(g.is_over());
    for by in [Color::White, Color::Black] {
        let e = g.apply(t(T0 + 4_000), Command::by(by, Action::RematchOffer)).unwrap_err();
        assert_eq!(e, CommandError::TournamentGame);
        assert!(e.message(guoxiang_core::Lang::En).contains("tournament"), "{}", e.message(guoxiang_core::Lang::En));
    }
    assert_eq!(g.source().as_str(), "swiss");
}
