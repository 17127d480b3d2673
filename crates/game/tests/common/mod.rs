//! Helpers shared by the integration tests: games at injected timestamps.

#![allow(dead_code)]

use guoxiang_game::{
    Action, Color, Command, Event, Game, GameConfig, GameSetup, MoveInput, PlayerRef, TimeControl, Timestamp, Variant,
    VersionedEvent,
};

/// Creation time of every test game (not 0, so that shifting timestamps back is visible).
pub const T0: u64 = 1_000_000;

pub fn t(ms: u64) -> Timestamp {
    Timestamp(ms)
}

pub fn setup(tc: &str, rated: bool, variant: Variant) -> GameSetup {
    let time_control = TimeControl::from_pgn(tc).unwrap();
    GameSetup {
        id: "g1".into(),
        white: PlayerRef::human("u1", "李白"),
        black: PlayerRef::human("u2", "Du Fu"),
        rated,
        config: GameConfig::for_time_control(&time_control),
        time_control,
        variant,
        source: guoxiang_game::Source::Friend,
    }
}

pub fn game(tc: &str, rated: bool) -> Game {
    Game::new(setup(tc, rated, Variant::Standard), t(T0)).unwrap()
}

pub fn from_fen(tc: &str, fen: &str) -> Game {
    Game::new(setup(tc, false, Variant::FromPosition { fen: fen.into() }), t(T0)).unwrap()
}

pub fn mv_cmd(by: Color, uci: &str) -> Command {
    Command::Player { by, action: Action::Move { mv: MoveInput::uci(uci), offer_draw: false }, lag_ms: 0 }
}

/// Plays `uci` for the side to move at `now`; panics if refused.
pub fn mv(g: &mut Game, now: u64, uci: &str) -> Vec<VersionedEvent> {
    let by = g.turn();
    g.apply(t(now), mv_cmd(by, uci)).unwrap_or_else(|e| panic!("{uci}: {e}"))
}

/// Plays the moves one second apart starting at `start`; returns the time of the last one.
pub fn line(g: &mut Game, start: u64, ucis: &str) -> u64 {
    let mut now = start;
    for (i, u) in ucis.split_whitespace().enumerate() {
        if i > 0 {
            now += 1_000;
        }
        mv(g, now, u);
    }
    now
}

/// The `type` of each event.
pub fn types(events: &[VersionedEvent]) -> Vec<String> {
    events.iter().map(|e| serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_owned()).collect()
}

pub fn events(events: &[VersionedEvent]) -> Vec<Event> {
    events.iter().map(|e| e.event.clone()).collect()
}

/// The `GameEnded` event's (result, termination, winner).
pub fn ended(events: &[VersionedEvent]) -> Option<(String, String, Option<Color>)> {
    events.iter().find_map(|e| match &e.event {
        Event::GameEnded { result, termination, winner, .. } => Some((result.clone(), termination.clone(), *winner)),
        _ => None,
    })
}
